// Endpoints some Quarry builds don't have yet (x-ray candidates, the assistant): a 404 "API endpoint does not
// exist." means the feature is absent, and the page leaves out what would use it.

import { ApiError, api } from './client';

export interface XrayCandidate {
  url: string;
  title: string;
  description?: string;
  table?: { id: number; display_name?: string };
}

export interface XraySchema {
  id: string;
  schema: string | null;
  tables: XrayCandidate[];
}

const absent = (error: unknown) => error instanceof ApiError && error.status === 404;

/** Suggested x-rays of a database, or null when this server has no x-rays. */
export async function xrayCandidates(databaseId: number, signal?: AbortSignal): Promise<XraySchema[] | null> {
  try {
    return await api.get<XraySchema[]>(`/api/automagic-dashboards/database/${databaseId}/candidates`, { signal });
  } catch (error) {
    if (absent(error)) return null;
    throw error;
  }
}

/**
 * Whether the assistant answers questions about a database. Asked with an empty body: a server with the endpoint
 * refuses it as invalid (400) without doing anything; one without answers 404.
 */
export async function hasAssistant(databaseId: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await api.post(`/api/assistant/database/${databaseId}`, {}, { signal });
    return true;
  } catch (error) {
    if (absent(error)) return false;
    if (error instanceof ApiError && error.status === 400) return true;
    throw error;
  }
}

export interface AssistantCard {
  dataset_query: unknown;
  display?: string;
  name?: string;
  visualization_settings?: Record<string, unknown>;
}

/** A question in plain words → the question the assistant wrote (not saved; opened as a new question). */
export async function askAssistant(databaseId: number, question: string): Promise<AssistantCard> {
  const answer = await api.post<{ card?: AssistantCard }>(`/api/assistant/database/${databaseId}`, { question });
  if (!answer?.card?.dataset_query) throw new Error("The assistant didn't write a question for that.");
  return answer.card;
}
