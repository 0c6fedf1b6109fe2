// GET /api/setup/admin_checklist: Metabase's getting-started checklist for admins — groups of tasks, each with
// whether it is done (`completed`) and whether it applies yet (`triggered`); the first triggered task not done is the
// `is_next_step`. Everything is read from the instance as it is now: databases, users, questions, dashboards,
// subscriptions, collections, hidden tables, models, embedding, and the email and Slack settings (looked up by
// Metabase's names through the settings registry, so a module that defines them later is read the same way).

import type { AppContext } from '../context.js';
import { emailConfigured, isSet, settingIfDefined, slackConfigured } from './instance-settings.js';
import { usageSection } from './usage-sections.js';

interface ChecklistState {
  appDb: string;
  hosted: boolean;
  embedding: { interested: boolean; done: boolean; appOrigin: boolean };
  configured: { email: boolean; slack: boolean; sso: boolean };
  counts: { user: number; card: number; table: number };
  exists: { nonSampleDb: boolean; dashboard: boolean; pulse: boolean; hiddenTable: boolean; collection: boolean; model: boolean; embeddedResource: boolean };
}

interface Task {
  title: string;
  group: string;
  description: string;
  link: string;
  completed: boolean;
  triggered: boolean;
}

async function count(ctx: AppContext, table: 'core_user' | 'report_card' | 'metabase_table', where: (q: any) => any): Promise<number> {
  const row = await where(ctx.db.selectFrom(table as any).select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function exists(ctx: AppContext, table: string, where: (q: any) => any): Promise<boolean> {
  const row = await where((ctx.db as any).selectFrom(table).select('id')).limit(1).executeTakeFirst();
  return row !== undefined;
}

async function checklistState(ctx: AppContext): Promise<ChecklistState> {
  const homepage = await settingIfDefined(ctx, 'embedding-homepage');
  const [pulses, alerts] = await Promise.all([usageSection(ctx, 'pulse'), usageSection(ctx, 'alert')]);
  const ownDatabases = (q: any) => q.where('is_audit', '=', false);
  const [email, slack, sso, appOrigin, users, cards, tables] = await Promise.all([
    emailConfigured(ctx),
    slackConfigured(ctx),
    settingIfDefined(ctx, 'google-auth-enabled'),
    settingIfDefined(ctx, 'embedding-app-origins-interactive'),
    count(ctx, 'core_user', (q) => q.where('type', '=', 'personal')),
    count(ctx, 'report_card', (q) => q),
    count(ctx, 'metabase_table', (q) => q.where('db_id', 'in', ownDatabases(ctx.db.selectFrom('metabase_database').select('id')))),
  ]);
  const [nonSampleDb, dashboard, hiddenTable, collection, model, embeddedCard, embeddedDashboard] = await Promise.all([
    exists(ctx, 'metabase_database', (q) => ownDatabases(q).where('is_sample', '=', false)),
    exists(ctx, 'report_dashboard', (q) => q),
    exists(ctx, 'metabase_table', (q) => q.where('visibility_type', 'is not', null)),
    exists(ctx, 'collection', (q) => q.where('type', 'is', null).where('personal_owner_id', 'is', null).where('namespace', 'is', null)),
    exists(ctx, 'report_card', (q) => q.where('type', '=', 'model')),
    exists(ctx, 'report_card', (q) => q.where('enable_embedding', '=', true)),
    exists(ctx, 'report_dashboard', (q) => q.where('enable_embedding', '=', true)),
  ]);
  return {
    appDb: ctx.dialect,
    hosted: (await settingIfDefined(ctx, 'is-hosted?')) === true,
    // `embedding-homepage` (visible, hidden, dismissed-done…): with no such setting nobody asked about embedding
    embedding: { interested: isSet(homepage) && homepage !== 'hidden', done: homepage === 'dismissed-done', appOrigin: isSet(appOrigin) },
    configured: { email, slack, sso: sso === true },
    counts: { user: users, card: cards, table: tables },
    exists: {
      nonSampleDb,
      dashboard,
      pulse: Number(pulses.pulses ?? 0) + Number(alerts.alerts ?? 0) > 0,
      hiddenTable,
      collection,
      model,
      embeddedResource: embeddedCard || embeddedDashboard,
    },
  };
}

function getConnected(s: ChecklistState): Task[] {
  const group = 'Get connected';
  return [
    { title: 'Add a database', group, description: 'Connect to your data so your whole team can start to explore.', link: '/admin/databases/create', completed: s.exists.nonSampleDb, triggered: true },
    {
      title: 'Set up email',
      group,
      description: 'Add email credentials so you can more easily invite team members and get updates via Pulses.',
      link: '/admin/settings/email',
      completed: s.configured.email,
      triggered: true,
    },
    {
      title: 'Set Slack credentials',
      group,
      description: 'Does your team use Slack? If so, you can send automated updates via dashboard subscriptions.',
      link: '/admin/settings/notifications/slack',
      completed: s.configured.slack,
      triggered: true,
    },
    {
      title: 'Setup embedding',
      group,
      description: 'Get customizable, flexible, and scalable customer-facing analytics in no time',
      link: '/admin/settings/embedding-in-other-applications',
      completed: s.embedding.done || (s.configured.sso && s.embedding.appOrigin) || s.exists.embeddedResource,
      triggered: s.embedding.interested,
    },
    {
      title: 'Invite team members',
      group,
      description: 'Share answers and data with the rest of your team.',
      link: '/admin/people/',
      completed: s.counts.user > 1,
      triggered: s.exists.dashboard || s.exists.pulse || s.counts.card >= 5,
    },
  ];
}

function productionize(s: ChecklistState): Task[] {
  return [
    {
      title: 'Switch to a production-ready app database',
      group: 'Productionize',
      description: 'Migrate off of the default SQLite application database to PostgreSQL or MySQL',
      link: 'https://www.metabase.com/docs/latest/installation-and-operation/configuring-application-database',
      completed: s.appDb !== 'sqlite',
      triggered: s.appDb === 'sqlite' && !s.hosted,
    },
  ];
}

function curate(s: ChecklistState): Task[] {
  const group = 'Curate your data';
  return [
    {
      title: 'Hide irrelevant tables',
      group,
      description: 'If your data contains technical or irrelevant info you can hide it.',
      link: '/admin/datamodel/database',
      completed: s.exists.hiddenTable,
      triggered: s.counts.table >= 20,
    },
    {
      title: 'Organize questions',
      group,
      description: 'Have a lot of saved questions in Metabase? Create collections to help manage them and add context.',
      link: '/collection/root',
      completed: s.exists.collection,
      triggered: s.counts.card >= 30,
    },
    { title: 'Create a model', group, description: 'Set up friendly starting points for your team to explore data', link: '/model/new', completed: s.exists.model, triggered: !s.exists.model },
  ];
}

export async function adminChecklist(ctx: AppContext) {
  const state = await checklistState(ctx);
  const groups = [
    { name: 'Get connected', tasks: getConnected(state) },
    ...(state.hosted ? [] : [{ name: 'Productionize', tasks: productionize(state) }]),
    { name: 'Curate your data', tasks: curate(state) },
  ];
  const next = groups.flatMap((g) => g.tasks).find((t) => t.triggered && !t.completed)?.title;
  return groups.map((g) => ({ name: g.name, tasks: g.tasks.map((t) => ({ ...t, is_next_step: t.title === next })) }));
}
