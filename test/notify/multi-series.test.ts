// A dashcard with other cards overlaid (its `series`) is drawn as one chart of every card's series in dashboard
// subscription emails and in preview_dashboard — not as its first card alone.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import type { Client } from '../helpers/client.js';
import { closeRenderer, renderCardPng, renderSettings } from '../../src/notify/render/index.js';
import { byCategory, dashboardWith, sampleCard } from './fixtures.js';

after(() => closeRenderer());

function images(html: string): string[] {
  return [...html.matchAll(/src="data:image\/png;base64,([^"]+)"/g)].map((m) => m[1]);
}

forEachAppDb('multi-series dashcards', (server) => {
  let admin: Client;
  let sample: Sample;
  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
  });

  test('preview_dashboard draws the dashcard\'s own card and its series cards on one chart', async () => {
    const counts = await sampleCard(admin, sample, { name: 'Products', display: 'bar', query: byCategory(sample) });
    const prices = await sampleCard(admin, sample, {
      name: 'Prices',
      display: 'line',
      query: { ...byCategory(sample), aggregation: [['sum', ['field', sample.field('PRODUCTS', 'PRICE'), null]]] },
    });
    const alone = await dashboardWith(admin, sample, [counts]);
    const overlaid = await dashboardWith(admin, sample, [counts]);
    const dashcards = overlaid.dashcards.map((dc: any) => ({ ...dc, series: [{ id: prices.id }] }));
    const put = await admin.put(`/api/dashboard/${overlaid.id}`, { dashcards });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.dashcards[0].series.map((s: any) => s.id), [prices.id]);

    const [aloneImages, overlaidImages] = await Promise.all(
      [alone, overlaid].map(async (d) => images((await admin.get(`/api/pulse/preview_dashboard/${d.id}`)).text)),
    );
    assert.equal(aloneImages.length, 1);
    assert.equal(overlaidImages.length, 1);
    assert.notEqual(overlaidImages[0], aloneImages[0], 'the series changes the picture');

    // The picture is exactly the chart of both cards' results together.
    const [countsData, pricesData] = await Promise.all([counts, prices].map(async (c) => (await admin.post(`/api/card/${c.id}/query`)).body.data));
    const options = await renderSettings(server().ctx);
    const expected = await renderCardPng(
      { name: 'Products', display: 'bar', visualization_settings: {}, series: [{ card: { name: 'Prices', display: 'line', visualization_settings: {} }, result: pricesData }] },
      countsData,
      { ...options, width: 1200 },
    );
    assert.equal(overlaidImages[0], expected.toString('base64'));
  });
});
