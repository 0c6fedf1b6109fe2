// POST /api/upload/csv (Metabase 0.55's name) and POST /api/card/from-csv (the name before, still called by
// clients): a CSV file becomes a table and a model over it. Answers the model's id, and the table's in a header.

import { Respond, type Routes } from '../http/route.js';
import { readUpload } from '../uploads/multipart.js';
import { uploadCsv } from '../uploads/uploads.js';

export function uploadRoutes(r: Routes) {
  for (const path of ['/api/upload/csv', '/api/card/from-csv']) {
    r.post(path, {}, async ({ ctx, caller, request }) => {
      const upload = await readUpload(request);
      const result = await uploadCsv(ctx, caller, upload);
      return new Respond(200, result.modelId, { 'metabase-table-id': String(result.tableId) });
    });
  }
}
