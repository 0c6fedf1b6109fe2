// `pivot_results` on a subscription's pivot card: its CSV and XLSX attachments are the pivot table the card shows
// (rows × columns with totals), as the card's own pivoted download is — and its result rows when it is off.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { installSample, type Sample } from '../cards/sample.js';
import type { Client } from '../helpers/client.js';
import { emailChannel, sampleCard } from './fixtures.js';

async function firstSheet(content: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

forEachAppDb('pivot_results attachments', (server) => {
  let admin: Client;
  let sample: Sample;
  let sink: SmtpSink;
  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
    sink = await startSmtpSink();
    assert.equal((await admin.put('/api/email', sink.settings())).status, 200);
  });
  after(() => sink?.close());

  test('a pivot card with pivot_results attaches its pivot table; without it, its rows', async () => {
    const category = ['field', sample.field('PRODUCTS', 'CATEGORY'), null];
    const year = ['field', sample.field('PRODUCTS', 'CREATED_AT'), { 'temporal-unit': 'year' }];
    const card = await sampleCard(admin, sample, {
      name: 'Pivoted',
      display: 'pivot',
      query: { 'source-table': sample.table('PRODUCTS'), aggregation: [['count']], breakout: [category, year] },
      viz: { 'pivot_table.column_split': { rows: [category], columns: [year], values: [['aggregation', 0]] } },
    });
    const download = async (format: string, pivot: boolean) => {
      const response = await fetch(admin.url(`/api/card/${card.id}/query/${format}`), {
        method: 'POST',
        headers: { 'X-Metabase-Session': admin.session!, 'Content-Type': 'application/json' },
        body: JSON.stringify({ format_rows: true, pivot_results: pivot }),
      });
      assert.equal(response.status, 200);
      return Buffer.from(await response.arrayBuffer());
    };
    for (const pivot of [true, false]) {
      const before = sink.messages.length;
      const sent = await admin.post('/api/pulse/test', {
        name: 'Pivot',
        cards: [{ id: card.id, include_csv: true, include_xls: true, format_rows: true, pivot_results: pivot }],
        channels: [emailChannel([{ email: `pivot-${pivot}@example.com` }])],
        skip_if_empty: false,
      });
      assert.deepEqual(sent.body, { ok: true }, sent.text);
      const [mail] = await sink.waitFor(before + 1).then((all) => all.slice(before));
      const csv = mail.attachments.find((a) => a.filename?.endsWith('.csv'))!.content.toString('utf8');
      const xlsx = mail.attachments.find((a) => a.filename?.endsWith('.xlsx'))!.content;
      assert.equal(csv, (await download('csv', pivot)).toString('utf8'), `csv, pivot_results ${pivot}`);
      assert.deepEqual(await firstSheet(xlsx), await firstSheet(await download('xlsx', pivot)), `xlsx, pivot_results ${pivot}`);
      assert.equal(/Grand totals/.test(csv), pivot);
    }
  });
});
