// Reading the multipart body of an upload: one `file` part and an optional `collection_id` field ("root" or empty
// means the root collection).

import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { ApiError, badRequest } from '../http/errors.js';

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
  collectionId: number | null;
}

export async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw badRequest('The request must be multipart/form-data with a "file" part.');
  let filename: string | null = null;
  let bytes: Buffer | null = null;
  let collectionId: number | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || bytes !== null) {
          await part.toBuffer();
          continue;
        }
        filename = part.filename || 'upload.csv';
        bytes = await part.toBuffer();
      } else if (part.fieldname === 'collection_id') {
        const value = String(part.value ?? '').trim();
        if (value === '' || value === 'root' || value === 'null') collectionId = null;
        else if (/^\d+$/.test(value) && Number(value) > 0) collectionId = Number(value);
        else throw new ApiError(400, { errors: { collection_id: 'nullable value must be an integer greater than zero.' } });
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string; statusCode?: number }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(413, { message: 'The file is too large: uploads may be at most 50 MB.' });
    throw badRequest(`The upload could not be read: ${(error as Error).message}`);
  }
  if (bytes === null || filename === null) throw new ApiError(400, { errors: { file: 'value must be a file.' } });
  return { filename, bytes, collectionId };
}
