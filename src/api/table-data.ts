// /api/table endpoints of newer Metabase versions: a table's rows (`/data`), the always-empty FKs of a saved
// question seen as a table, and appending to or replacing the contents of an uploaded table.

import { Respond, type Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import { tableOr404 } from '../databases/table-metadata.js';
import { checkTableVisible } from '../databases/access.js';
import { tableData } from '../query/table-data.js';
import { readUpload } from '../uploads/multipart.js';
import { updateUploadedTable, type UpdateAction } from '../uploads/update.js';

const id = { id: s.posInt() };

export function tableDataRoutes(r: Routes) {
  r.get('/api/table/:id/data', { params: id }, async ({ ctx, caller, params }) => {
    const table = await tableOr404(ctx, params.id);
    await checkTableVisible(ctx, caller, table);
    return tableData(ctx, caller, table);
  });

  // Metabase keeps this placeholder so the query builder can treat a saved question like a table.
  r.get('/api/table/card__:id/fks', { params: id }, () => []);

  for (const action of ['append', 'replace'] as UpdateAction[]) {
    r.post(`/api/table/:id/${action}-csv`, { params: id }, async ({ ctx, caller, params, request }) => {
      const upload = await readUpload(request);
      await updateUploadedTable(ctx, caller, params.id, action, upload);
      return new Respond(200, undefined); // Metabase answers 200 with an empty body
    });
  }
}
