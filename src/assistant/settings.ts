// The language model the assistant may call: any server speaking OpenAI's chat-completions protocol (OpenAI,
// llama.cpp's llama-server, Ollama, vLLM…). Metabase's setting names where it had them (`openai-api-key`,
// `openai-organization`, `openai-model`); the base URL is Quarry's (Metabase could only call OpenAI).
// With neither a key nor a base URL set, no model is configured and the assistant answers from metadata alone.

import type { AppContext } from '../context.js';
import { defineSetting } from '../settings/definition.js';
import { badRequest } from '../http/errors.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';

function httpUrl(value: unknown): string {
  const text = String(value).trim().replace(/\/+$/, '');
  try {
    const url = new URL(text);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return text;
  } catch {
    // refused below
  }
  throw badRequest(`Invalid URL: ${JSON.stringify(value)}. The assistant's model needs an http(s) base URL such as ${DEFAULT_BASE_URL}.`);
}

defineSetting({
  key: 'openai-api-base-url',
  type: 'string',
  visibility: 'settings-manager',
  default: null,
  description: `Base URL of an OpenAI-compatible chat-completions API the assistant uses (default ${DEFAULT_BASE_URL}), e.g. http://127.0.0.1:8080/v1 for llama.cpp or http://localhost:11434/v1 for Ollama. Private addresses follow http-channel-host-strategy.`,
  validate: httpUrl,
});
defineSetting({ key: 'openai-api-key', type: 'string', visibility: 'settings-manager', default: null, sensitive: true, description: 'The API key the assistant sends to its model (Authorization: Bearer).' });
defineSetting({ key: 'openai-organization', type: 'string', visibility: 'settings-manager', default: null, description: 'The OpenAI organization ID sent with the assistant\'s requests (optional).' });
defineSetting({ key: 'openai-model', type: 'string', visibility: 'settings-manager', default: DEFAULT_MODEL, description: 'The model name the assistant asks for.' });
defineSetting({
  key: 'openai-request-timeout-seconds',
  type: 'integer',
  visibility: 'settings-manager',
  default: 60,
  range: { min: 1, max: 600 },
  description: 'How long the assistant waits for one answer of its model before giving up (seconds).',
});
defineSetting({
  key: 'openai-max-retries',
  type: 'integer',
  visibility: 'settings-manager',
  default: 2,
  range: { min: 0, max: 5 },
  description: 'How many times the assistant asks its model again after a 429 or 5xx answer (with a growing pause).',
});

export interface ModelConfig {
  baseUrl: string;
  apiKey: string | null;
  organization: string | null;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/** The configured model, or null when neither a key nor a base URL is set. */
export async function modelConfig(ctx: AppContext): Promise<ModelConfig | null> {
  const [baseUrl, apiKey, organization, model, timeout, retries] = await Promise.all([
    ctx.settings.getString('openai-api-base-url'),
    ctx.settings.getString('openai-api-key'),
    ctx.settings.getString('openai-organization'),
    ctx.settings.getString('openai-model'),
    ctx.settings.getNumber('openai-request-timeout-seconds'),
    ctx.settings.getNumber('openai-max-retries'),
  ]);
  if (!baseUrl && !apiKey) return null;
  return {
    baseUrl: baseUrl || DEFAULT_BASE_URL,
    apiKey: apiKey || null,
    organization: organization || null,
    model: model || DEFAULT_MODEL,
    timeoutMs: (timeout ?? 60) * 1000,
    maxRetries: retries ?? 2,
  };
}
