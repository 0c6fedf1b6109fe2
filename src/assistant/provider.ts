// One chat-completions call to the configured model (OpenAI's wire protocol, which llama.cpp, Ollama, vLLM and
// others speak): through the outbound address policy webhooks use (`http-channel-host-strategy`), with a timeout,
// bounded retries on 429 and 5xx (honouring `retry-after`, else a doubling pause), and upstream failures mapped to
// Metabase's assistant errors (reference assistant.md §2.5) — an upstream 401 is never passed on as a 401, which
// would sign the user out of the web app.

import type { AppContext } from '../context.js';
import { messageError, type ApiError } from '../http/errors.js';
import { sendOutbound, OutboundError, type OutboundResponse } from '../util/outbound.js';
import { hostPolicy } from '../notify/webhook.js';
import type { ModelConfig } from './settings.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export const CREDENTIALS_MESSAGE = 'Bot credentials are incorrect or not set.\nCheck with your administrator that the correct API keys are set.';
export const HEAVY_LOAD_MESSAGE = 'The bot server is under heavy load and cannot process your request at this time.\nPlease try again.';
export const QUOTA_MESSAGE = 'You exceeded your current OpenAI billing quota, please check your OpenAI plan and billing details.';

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 20_000;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

interface UpstreamError {
  message?: string;
  type?: string;
  code?: string;
}

function upstreamError(body: string): UpstreamError {
  try {
    const parsed = JSON.parse(body);
    const error = parsed?.error;
    if (error && typeof error === 'object') return error as UpstreamError;
    if (typeof error === 'string') return { message: error };
  } catch {
    // not JSON: no details
  }
  return {};
}

const retryable = (status: number) => status === 429 || status === 500 || status === 502 || status === 503 || status === 504;

/** How long to wait before attempt `attempt + 1`: the server's `retry-after` (seconds) when given, capped. */
function pauseMs(response: OutboundResponse | null, attempt: number): number {
  const header = response?.headers['retry-after'];
  const seconds = header === undefined ? NaN : Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, LONGEST_PAUSE_MS);
  return Math.min(FIRST_PAUSE_MS * 2 ** attempt, LONGEST_PAUSE_MS);
}

/** The error a final upstream answer becomes (Metabase's mapping; 5xx and unknown answers are a 502 here). */
function mapStatus(response: OutboundResponse): ApiError {
  const error = upstreamError(response.body);
  if (response.status === 401 || response.status === 403) return messageError(400, CREDENTIALS_MESSAGE);
  if (response.status === 429) {
    if (error.type === 'insufficient_quota' || error.code === 'insufficient_quota') return messageError(429, QUOTA_MESSAGE);
    return messageError(429, HEAVY_LOAD_MESSAGE);
  }
  if (response.status === 400 && error.message) return messageError(400, error.message);
  return messageError(502, HEAVY_LOAD_MESSAGE, { upstream_status: response.status, ...(error.message ? { upstream_message: error.message } : {}) });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of every choice of a chat-completions answer; a 502 when the answer isn't one. */
export function choiceContents(body: string): string[] {
  let parsed: any;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw messageError(502, 'The assistant\'s model sent an answer that is not JSON; is the base URL a chat-completions API?');
  }
  const choices = parsed?.choices;
  if (!Array.isArray(choices)) throw messageError(502, 'The assistant\'s model sent an answer without choices; is the base URL a chat-completions API?');
  return choices.map((c: any) => c?.message?.content).filter((c: unknown): c is string => typeof c === 'string');
}

/** Sends the conversation and returns the choices' texts. */
export async function complete(ctx: AppContext, config: ModelConfig, messages: ChatMessage[]): Promise<string[]> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (config.apiKey) headers.Authorization = `Bearer ${config.apiKey}`;
  if (config.organization) headers['OpenAI-Organization'] = config.organization;
  const body = JSON.stringify({ model: config.model, messages, temperature: 0, n: 1, max_tokens: 1024, stream: false });
  const policy = await hostPolicy(ctx);
  for (let attempt = 0; ; attempt++) {
    let response: OutboundResponse;
    try {
      response = await sendOutbound(
        { method: 'POST', url: `${config.baseUrl}/chat/completions`, headers, body, timeoutMs: config.timeoutMs, maxBytes: MAX_ANSWER_BYTES },
        policy,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof OutboundError && /not allowed|Invalid URL|Only http/.test(message)) {
        throw messageError(400, `The assistant's model can't be called: ${message} An admin can allow it with the http-channel-host-strategy setting.`);
      }
      if (attempt < config.maxRetries && !/within/.test(message)) {
        await sleep(pauseMs(null, attempt));
        continue;
      }
      throw messageError(502, `The assistant's model could not be reached: ${message}`);
    }
    if (response.status >= 200 && response.status < 300) return choiceContents(response.body);
    const error = upstreamError(response.body);
    const quota = error.type === 'insufficient_quota' || error.code === 'insufficient_quota';
    if (retryable(response.status) && !quota && attempt < config.maxRetries) {
      await sleep(pauseMs(response, attempt));
      continue;
    }
    throw mapStatus(response);
  }
}
