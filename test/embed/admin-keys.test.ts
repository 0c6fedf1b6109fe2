// Clients save a card or dashboard by PUTting back the whole object a GET returned, admin-only keys included
// (`enable_embedding`, `embedding_params`). Only a change of those keys needs an admin; the values already stored pass.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { registerDatabase, createCard, type DataFixture } from '../cards/fixtures.js';

forEachAppDb('admin-only keys in a copied body', (server) => {
  let admin: Client;
  let user: Client;
  let data: DataFixture;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    data = await registerDatabase(server());
  });

  for (const kind of ['card', 'dashboard'] as const) {
    test(`a ${kind} PUT back as GET returned it saves for a non-admin; changing embedding still needs an admin`, async () => {
      const id = kind === 'card' ? (await createCard(admin, data)).id : (await admin.post('/api/dashboard', { name: 'Embedded' })).body.id;
      // Embedding is off: the stored `enable_embedding: false` is no change, for the admin too.
      const plain = (await admin.get(`/api/${kind}/${id}`)).body;
      const renamedByAdmin = await admin.put(`/api/${kind}/${id}`, { ...plain, name: 'Renamed by admin' });
      assert.equal(renamedByAdmin.status, 200, renamedByAdmin.text.slice(0, 200));

      assert.equal((await admin.put('/api/setting/enable-embedding-static', { value: true })).status, 204);
      const on = await admin.put(`/api/${kind}/${id}`, { enable_embedding: true, embedding_params: { category: 'enabled', id: 'locked' } });
      assert.equal(on.status, 200, on.text.slice(0, 200));

      const copied = (await user.get(`/api/${kind}/${id}`)).body;
      assert.equal(copied.enable_embedding, true);
      // The same map with its keys in another order is the same value.
      const saved = await user.put(`/api/${kind}/${id}`, { ...copied, name: 'Renamed by a user', embedding_params: { id: 'locked', category: 'enabled' } });
      assert.equal(saved.status, 200, saved.text.slice(0, 200));
      assert.equal(saved.body.name, 'Renamed by a user');
      assert.equal(saved.body.enable_embedding, true);

      assert.equal((await user.put(`/api/${kind}/${id}`, { ...copied, enable_embedding: false })).status, 403);
      assert.equal((await user.put(`/api/${kind}/${id}`, { ...copied, embedding_params: { category: 'locked', id: 'locked' } })).status, 403);
      const after = (await admin.get(`/api/${kind}/${id}`)).body;
      assert.equal(after.enable_embedding, true);
      assert.deepEqual(after.embedding_params, { category: 'enabled', id: 'locked' });
      assert.equal((await admin.put('/api/setting/enable-embedding-static', { value: false })).status, 204);
    });
  }
});
