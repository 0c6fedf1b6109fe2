// Model persistence's settings (reference B8): the site-wide switch (public, as Metabase's) and the refresh schedule.

import { defineSetting } from '../settings/definition.js';
import { badRequest } from '../http/errors.js';
import { isValidCron } from '../tasks/cron.js';

export const CRON_FORMAT_MESSAGE =
  'Value must be a string representing a cron schedule of format <seconds> <minutes> <hours> <day of month> <month> <day of week> <year>';
export const CRON_YEAR_MESSAGE = 'Must be a valid cron string not specifying a year';

/** Metabase's rules for the refresh schedule: seven fields, a valid Quartz expression whose year is `*`. */
export function checkRefreshSchedule(value: unknown): string {
  if (typeof value !== 'string' || !value.trim() || value.trim().split(' ').length !== 7) throw badRequest(CRON_FORMAT_MESSAGE);
  const cron = value.trim();
  if (!cron.endsWith('*') || !isValidCron(cron)) throw badRequest(CRON_YEAR_MESSAGE);
  return cron;
}

defineSetting({ key: 'persisted-models-enabled', type: 'boolean', visibility: 'public', default: false, description: 'Allow persisting models into the source database.' });
defineSetting({
  key: 'persisted-model-refresh-cron-schedule',
  type: 'string',
  visibility: 'admin',
  default: '0 0 0/6 * * ? *',
  description: 'cron syntax string to schedule refreshing persisted models.',
  validate: (value) => checkRefreshSchedule(value),
});
