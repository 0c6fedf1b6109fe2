// Table templates, one per table kind (the `entity_type` sync gives a table from its name). Each kind starts from the
// generic cards and adds what its kind is about: money for transactions, sign-ups for users, categories and prices for
// products, rhythms for events.

import { withDimensions } from './dimensions.js';
import { GENERIC_CARDS, GENERIC_FILTERS, GENERIC_GROUPS, GENERIC_METRICS, GENERIC_SUBTEMPLATES } from './generic-cards.js';
import type { Template } from './types.js';

const GenericTable: Template = {
  name: 'GenericTable',
  appliesTo: 'entity/GenericTable',
  specificity: 1,
  title: 'A look at {{this}}',
  description: 'Some metrics we found about {{this}}.',
  dimensions: withDimensions([]),
  metrics: GENERIC_METRICS,
  groups: GENERIC_GROUPS,
  cards: GENERIC_CARDS,
  filters: GENERIC_FILTERS,
  subTemplates: GENERIC_SUBTEMPLATES,
};

const TransactionTable: Template = {
  name: 'TransactionTable',
  appliesTo: 'entity/TransactionTable',
  specificity: 2,
  title: 'A look at {{this}}',
  description: 'Some metrics we found about transactions.',
  dimensions: withDimensions([
    {
      name: 'Income',
      matchers: [
        { type: 'type/Income', score: 100, ownOnly: true },
        { type: 'type/Number', named: '^(total|amount|revenue|income|sales|grand_?total)$', score: 95, ownOnly: true },
      ],
    },
    { name: 'ProductCategory', matchers: [{ type: 'type/Category', score: 92, linkedTo: 'entity/ProductTable', minDistinct: 2, maxDistinct: 100 }] },
  ]),
  metrics: [
    ...GENERIC_METRICS,
    { name: 'Sales', aggregation: 'sum', dimension: 'Income', title: 'Sum of {{Income}}' },
    { name: 'AvgSale', aggregation: 'avg', dimension: 'Income', title: 'Average {{Income}}' },
  ],
  groups: [GENERIC_GROUPS[0], { id: 'sales', title: 'Sales', comparisonTitle: 'Sales' }, ...GENERIC_GROUPS.slice(1)],
  cards: [
    ...GENERIC_CARDS,
    { title: 'Sum of {{Income}}', group: 'overview', metrics: ['Sales'], display: 'scalar', score: 97, width: 6, height: 3 },
    { title: 'Sales per {{unit}}', group: 'sales', metrics: ['Sales', 'Count'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 98, width: 18, height: 6 },
    { title: 'Average {{Income}} per {{unit}}', group: 'sales', metrics: ['AvgSale'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 85, width: 12, height: 6 },
    { title: 'Sales per {{ProductCategory}}', group: 'sales', metrics: ['Sales'], dimensions: [{ dimension: 'ProductCategory' }], display: 'row', score: 90, width: 12, height: 6, top: 20 },
    { title: 'Sales per state', group: 'where', metrics: ['Sales'], dimensions: [{ dimension: 'State' }], display: 'map', region: 'us_states', score: 84, width: 12, height: 6 },
    { title: 'How {{Income}} is distributed', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Income', binning: true }], display: 'bar', score: 87, width: 12, height: 6 },
  ],
  filters: ['Timestamp', 'ProductCategory', ...GENERIC_FILTERS.slice(1)],
  subTemplates: [...GENERIC_SUBTEMPLATES, { name: 'Sales', title: 'Sales of {{this}}', description: 'Revenue over time and per product category.', groups: ['sales'] }],
};

const UserTable: Template = {
  name: 'UserTable',
  appliesTo: 'entity/UserTable',
  specificity: 2,
  title: 'A look at {{this}}',
  description: 'Some metrics we found about {{this}}: when they joined, where they are and where they came from.',
  dimensions: withDimensions([]),
  metrics: GENERIC_METRICS,
  groups: GENERIC_GROUPS.map((g) =>
    g.id === 'time' ? { ...g, title: 'New {{this}} over time' } : g.id === 'seasonality' ? { ...g, title: 'When {{this}} join', comparisonTitle: 'When they join' } : g,
  ),
  cards: [
    ...GENERIC_CARDS.filter((c) => c.title !== '{{this}} per {{unit}}' && c.title !== '{{this}} added in the last 30 days'),
    { title: 'New {{this}} in the last 30 days', group: 'overview', metrics: ['Count'], filter: { kind: 'last-30-days', dimension: 'Timestamp' }, display: 'scalar', score: 96, width: 6, height: 3 },
    { title: 'New {{this}} per {{unit}}', group: 'time', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 97, width: 18, height: 6 },
  ],
  filters: GENERIC_FILTERS,
  subTemplates: GENERIC_SUBTEMPLATES,
};

const ProductTable: Template = {
  name: 'ProductTable',
  appliesTo: 'entity/ProductTable',
  specificity: 2,
  title: 'A look at {{this}}',
  description: 'Some metrics we found about {{this}}: their categories, prices and ratings.',
  dimensions: withDimensions([
    { name: 'Price', matchers: [{ type: 'type/Price', score: 100, ownOnly: true }, { type: 'type/Currency', score: 80, ownOnly: true, minDistinct: 2 }] },
  ]),
  metrics: [...GENERIC_METRICS, { name: 'AvgPrice', aggregation: 'avg', dimension: 'Price', title: 'Average {{Price}}' }],
  groups: GENERIC_GROUPS,
  // when products were added to a catalog says little about them: no weekday/hour charts
  cards: [
    ...GENERIC_CARDS.filter((c) => c.group !== 'seasonality'),
    { title: 'Average {{Price}}', group: 'overview', metrics: ['AvgPrice'], display: 'scalar', score: 90, width: 6, height: 3 },
    { title: 'Average {{Price}} per {{Category}}', group: 'distribution', metrics: ['AvgPrice'], dimensions: [{ dimension: 'Category' }], display: 'row', score: 89, width: 12, height: 6, top: 20 },
    { title: 'How {{Price}} is distributed', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Price', binning: true }], display: 'bar', score: 87, width: 12, height: 6 },
  ],
  filters: ['Category', ...GENERIC_FILTERS.filter((f) => f !== 'Category')],
  subTemplates: GENERIC_SUBTEMPLATES.filter((s) => s.name !== 'Seasonality'),
};

const EventTable: Template = {
  name: 'EventTable',
  appliesTo: 'entity/EventTable',
  specificity: 2,
  title: 'A look at {{this}}',
  description: 'Some metrics we found about {{this}}: how many, when and of which kind.',
  dimensions: withDimensions([]),
  metrics: GENERIC_METRICS,
  groups: [GENERIC_GROUPS[0], GENERIC_GROUPS[1], GENERIC_GROUPS[4], GENERIC_GROUPS[2], GENERIC_GROUPS[3]],
  cards: GENERIC_CARDS.map((c) => (c.group === 'seasonality' ? { ...c, score: c.score + 30 } : c)),
  filters: GENERIC_FILTERS,
  subTemplates: GENERIC_SUBTEMPLATES,
};

/** Kinds without cards of their own read as generic tables, with their own description. */
const like = (name: string, appliesTo: string, description: string): Template => ({ ...GenericTable, name, appliesTo, specificity: 2, description });

export const TABLE_TEMPLATES: Template[] = [
  TransactionTable,
  UserTable,
  ProductTable,
  EventTable,
  like('CompanyTable', 'entity/CompanyTable', 'Some metrics we found about {{this}} and the companies in it.'),
  like('SubscriptionTable', 'entity/SubscriptionTable', 'Some metrics we found about {{this}}: when they started and of which kind.'),
  GenericTable,
];

export const GENERIC_TABLE = GenericTable;
