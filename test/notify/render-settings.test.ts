// The settings rendering reads, from the app DB (both kinds): attachment-table-row-limit (defined by the renderer,
// internal: the system or MB_ATTACHMENT_TABLE_ROW_LIMIT sets it), report-timezone, start-of-week and
// custom-formatting, gathered by renderSettings(ctx) into the options an emailed table is drawn with.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeRenderer, renderCardHtml, renderSettings } from '../../src/notify/render/index.js';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';

after(() => closeRenderer());

const result = {
  cols: [
    { name: 'D', display_name: 'Day', base_type: 'type/DateTime', unit: 'day' },
    { name: 'N', display_name: 'Amount', base_type: 'type/Float' },
  ],
  rows: Array.from({ length: 30 }, (_, i) => [`2024-03-${String(i + 1).padStart(2, '0')}T00:00:00Z`, 1000.5 + i]),
};

forEachAppDb('render settings', (server) => {
  test('defaults: 20 rows, Sunday weeks, no custom formatting, the system zone without a report time zone', async () => {
    const options = await renderSettings(server().ctx);
    assert.equal(options.tableRowLimit, 20);
    assert.equal(options.startOfWeek, 'sunday');
    assert.deepEqual(options.formatting, {});
    assert.equal(options.timezone, Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  test('stored settings shape the emailed table', async () => {
    const admin = await setupAdmin(server());
    await server().ctx.settings.set('attachment-table-row-limit', 5, null);
    assert.equal((await admin.put('/api/setting/report-timezone', { value: 'Asia/Tokyo' })).status, 204);
    assert.equal((await admin.put('/api/setting/start-of-week', { value: 'monday' })).status, 204);
    const formatting = { 'type/Number': { number_separators: ',.' }, 'type/Temporal': { date_style: 'YYYY/M/D' } };
    assert.equal((await admin.put('/api/setting/custom-formatting', { value: formatting })).status, 204);
    const options = await renderSettings(server().ctx);
    assert.deepEqual(options, { timezone: 'Asia/Tokyo', tableRowLimit: 5, startOfWeek: 'monday', formatting });
    const { html } = await renderCardHtml({ name: 'T', display: 'table', visualization_settings: {} }, result, { ...options, imageMode: 'cid' });
    assert.match(html, />2024\/3\/1<\/td>/);
    assert.match(html, />1\.000,5<\/td>/);
    assert.match(html, /Showing <strong>5<\/strong> of <strong>30<\/strong> rows\./);
    await server().ctx.settings.set('attachment-table-row-limit', 500, null);
    assert.equal((await renderSettings(server().ctx)).tableRowLimit, 100, 'never more than 100 rows');
  });
});
