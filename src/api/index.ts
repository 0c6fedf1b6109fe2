// Every API area's routes. Adding an area: write src/api/<area>.ts exporting a `<area>Routes(r)` and list it here.

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Routes } from '../http/route.js';
import { sessionRoutes } from './session.js';
import { setupRoutes } from './setup.js';
import { userRoutes } from './user.js';
import { permissionsGroupRoutes } from './permissions-group.js';
import { settingRoutes } from './setting.js';
import { apiKeyRoutes } from './api-key.js';
import { utilRoutes } from './util.js';
import { collectionRoutes } from './collection.js';
import { timelineRoutes } from './timeline.js';
import { timelineEventRoutes } from './timeline-event.js';
import { cardRoutes } from './card.js';
import { revisionRoutes } from './revision.js';
import { nativeQuerySnippetRoutes } from './native-query-snippet.js';
import { activityRoutes } from './activity.js';
import { searchRoutes } from './search.js';
import { bookmarkRoutes } from './bookmark.js';
import multipart from '@fastify/multipart';
import { MAX_UPLOAD_BYTES } from '../uploads/uploads.js';
import { databaseRoutes } from './database.js';
import { fieldRoutes } from './field.js';
import { tableRoutes } from './table.js';
import { dashboardRoutes } from './dashboard.js';
import { datasetRoutes } from './dataset.js';
import { startDatabaseServices } from '../databases/startup.js';
import { permissionsGraphRoutes } from './permissions-graph.js';
import { publicRoutes } from './public.js';
import { embedRoutes } from './embed.js';
import { previewEmbedRoutes } from './preview-embed.js';
import { actionRoutes } from './action.js';
import { segmentRoutes } from './segment.js';
import { cacheRoutes } from './cache.js';
import { persistRoutes } from './persist.js';
import { taskRoutes } from './task.js';

export async function registerApi(r: Routes, _app: FastifyInstance, _ctx: AppContext): Promise<void> {
  sessionRoutes(r);
  setupRoutes(r);
  userRoutes(r);
  permissionsGroupRoutes(r);
  settingRoutes(r);
  apiKeyRoutes(r);
  utilRoutes(r);
  collectionRoutes(r);
  timelineRoutes(r);
  timelineEventRoutes(r);
  cardRoutes(r);
  revisionRoutes(r);
  nativeQuerySnippetRoutes(r);
  activityRoutes(r);
  searchRoutes(r);
  bookmarkRoutes(r);
  // CSV uploads (POST /api/card/from-csv) arrive as multipart/form-data.
  await _app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 5 } });
  databaseRoutes(r);
  fieldRoutes(r);
  tableRoutes(r);
  dashboardRoutes(r);
  datasetRoutes(r);
  permissionsGraphRoutes(r);
  actionRoutes(r);
  segmentRoutes(r);
  cacheRoutes(r);
  persistRoutes(r);
  taskRoutes(r);
  publicRoutes(r);
  embedRoutes(r);
  previewEmbedRoutes(r);
  // Installs the sample database on a new install and starts the sync schedules.
  await startDatabaseServices(_ctx);
}
