// A small MIME reader for the tests' SMTP sink: headers (unfolded, RFC 2047 words decoded), nested multiparts, and
// bodies decoded from base64 or quoted-printable — enough to check what Quarry's mails contain.

export interface MimePart {
  headers: Record<string, string>;
  /** e.g. text/html (lower case) */
  type: string;
  params: Record<string, string>;
  body: Buffer;
  parts: MimePart[];
}

export interface ParsedMail {
  headers: Record<string, string>;
  subject: string;
  html: string | null;
  text: string | null;
  /** Every leaf part that isn't the text or HTML body (inline images and attachments). */
  attachments: Array<{ filename: string | null; contentType: string; cid: string | null; inline: boolean; content: Buffer }>;
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=(\s+(?==\?))?/g, (_m, _charset: string, encoding: string, text: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = text.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    const value = decodeWords(line.slice(i + 1).trim());
    headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

function parseParams(value: string): { main: string; params: Record<string, string> } {
  const [main, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const i = p.indexOf('=');
    if (i < 0) continue;
    params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim().replace(/^"|"$/g, '');
  }
  return { main: main.trim().toLowerCase(), params };
}

function decodeBody(text: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(text.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable': {
      const soft = text.replace(/=\r?\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < soft.length; i++) {
        if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
          bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
          i += 2;
        } else bytes.push(...Buffer.from(soft[i], 'utf8'));
      }
      return Buffer.from(bytes);
    }
    default:
      return Buffer.from(text, 'utf8');
  }
}

export function parsePart(raw: string): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const headerText = split < 0 ? raw : raw.slice(0, split);
  const bodyText = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = parseHeaders(headerText);
  const { main: type, params } = parseParams(headers['content-type'] ?? 'text/plain');
  if (type.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const pieces = bodyText.split(delimiter).slice(1);
    const parts: MimePart[] = [];
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      parts.push(parsePart(piece.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
    }
    return { headers, type, params, body: Buffer.alloc(0), parts };
  }
  return { headers, type, params, body: decodeBody(bodyText, headers['content-transfer-encoding']), parts: [] };
}

export function leaves(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leaves) : [part];
}

export function parseMail(raw: string): ParsedMail {
  const root = parsePart(raw);
  let html: string | null = null;
  let text: string | null = null;
  const attachments: ParsedMail['attachments'] = [];
  for (const leaf of leaves(root)) {
    const disposition = parseParams(leaf.headers['content-disposition'] ?? '');
    const isFile = disposition.main === 'attachment' || disposition.main === 'inline' || Boolean(leaf.headers['content-id']);
    if (!isFile && leaf.type === 'text/html' && html === null) html = leaf.body.toString('utf8');
    else if (!isFile && leaf.type === 'text/plain' && text === null) text = leaf.body.toString('utf8');
    else {
      attachments.push({
        filename: disposition.params.filename ?? leaf.params.name ?? null,
        contentType: leaf.type,
        cid: leaf.headers['content-id']?.replace(/^<|>$/g, '') ?? null,
        inline: disposition.main === 'inline',
        content: leaf.body,
      });
    }
  }
  return { headers: root.headers, subject: root.headers.subject ?? '', html, text, attachments };
}
