// The newest log lines of this process, for GET /api/logger/logs (0.55's name; /api/util/logs before): every record
// the logger writes (at its configured level) is also kept here, at most MAX_LINES, newest first, in Metabase's shape
// {timestamp, level, fqns, msg, exception, process_uuid}. Per process, as in Metabase: each instance of a cluster
// shows its own.

import { randomUUID } from 'node:crypto';

const MAX_LINES = 1000;
const PROCESS_UUID = randomUUID();
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

export interface LogLine {
  timestamp: string;
  level: string;
  fqns: string;
  msg: string;
  exception: string[] | null;
  process_uuid: string;
}

const lines: LogLine[] = [];

function record(args: unknown[], level: number): void {
  const first = args[0];
  const fields = first && typeof first === 'object' && !(first instanceof Error) ? (first as Record<string, unknown>) : null;
  const err = first instanceof Error ? first : fields?.err instanceof Error ? fields.err : null;
  const text = args.find((a, i) => typeof a === 'string' && (i > 0 || !fields || first instanceof Error));
  lines.push({
    timestamp: new Date().toISOString(),
    level: LEVELS[level] ?? String(level),
    fqns: typeof fields?.module === 'string' ? fields.module : 'quarry',
    msg: typeof text === 'string' ? text : err?.message ?? '',
    exception: err?.stack ? err.stack.split('\n') : null,
    process_uuid: PROCESS_UUID,
  });
  if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
}

/** pino's `hooks.logMethod`: keep a copy, then log as usual. */
export function captureLog(this: unknown, args: unknown[], method: (...a: unknown[]) => void, level: number): void {
  try {
    record(args, level);
  } catch {
    // keeping a copy must never stop the log line itself
  }
  method.apply(this, args);
}

export function recentLogs(): LogLine[] {
  return [...lines].reverse();
}
