// Where a public link or a signed embed reads its card, dashboard and results. Both speak the same shapes; they
// differ in the URL prefix and in how filter values travel: a public link sends `parameters=[{id, value}]`,
// an embed sends `?<slug>=<value>` (its token's locked values are added by the server, never by the page).

import { withQuery } from '../../api/client';
import type { Parameter } from '../../api/types';

/** Filter values as the page's URL holds them: slug → one or more values. */
export type ParameterValues = Record<string, string[]>;

export interface SharedSource {
  kind: 'public' | 'embed';
  cardPath: string;
  cardQueryPath(parameters: Parameter[], values: ParameterValues): string;
  cardExportPath(format: string, parameters: Parameter[], values: ParameterValues): string;
  dashboardPath: string;
  dashcardQueryPath(dashcardId: number, cardId: number, parameters: Parameter[], values: ParameterValues): string;
  dashcardExportPath(format: string, dashcardId: number, cardId: number, parameters: Parameter[], values: ParameterValues): string;
}

const one = (values: string[]): string | string[] => (values.length === 1 ? values[0] : values);

function publicParameters(parameters: Parameter[], values: ParameterValues): string | undefined {
  const list = parameters.filter((p) => values[p.slug]?.length).map((p) => ({ id: p.id, type: p.type, value: one(values[p.slug]) }));
  return list.length ? JSON.stringify(list) : undefined;
}

function embedQuery(parameters: Parameter[], values: ParameterValues): Record<string, string[]> {
  const known = new Set(parameters.map((p) => p.slug));
  return Object.fromEntries(Object.entries(values).filter(([slug, v]) => known.has(slug) && v.length));
}

export function publicSource(uuid: string): SharedSource {
  const u = encodeURIComponent(uuid);
  return {
    kind: 'public',
    cardPath: `/api/public/card/${u}`,
    cardQueryPath: (ps, vs) => withQuery(`/api/public/card/${u}/query`, { parameters: publicParameters(ps, vs) }),
    cardExportPath: (format, ps, vs) => withQuery(`/api/public/card/${u}/query/${format}`, { parameters: publicParameters(ps, vs) }),
    dashboardPath: `/api/public/dashboard/${u}`,
    dashcardQueryPath: (dc, c, ps, vs) => withQuery(`/api/public/dashboard/${u}/dashcard/${dc}/card/${c}`, { parameters: publicParameters(ps, vs) }),
    dashcardExportPath: (format, dc, c, ps, vs) => withQuery(`/api/public/dashboard/${u}/dashcard/${dc}/card/${c}/${format}`, { parameters: publicParameters(ps, vs) }),
  };
}

export function embedSource(token: string): SharedSource {
  const t = encodeURIComponent(token);
  return {
    kind: 'embed',
    cardPath: `/api/embed/card/${t}`,
    cardQueryPath: (ps, vs) => withQuery(`/api/embed/card/${t}/query`, embedQuery(ps, vs)),
    cardExportPath: (format, ps, vs) => withQuery(`/api/embed/card/${t}/query/${format}`, embedQuery(ps, vs)),
    dashboardPath: `/api/embed/dashboard/${t}`,
    dashcardQueryPath: (dc, c, ps, vs) => withQuery(`/api/embed/dashboard/${t}/dashcard/${dc}/card/${c}`, embedQuery(ps, vs)),
    dashcardExportPath: (format, dc, c, ps, vs) => withQuery(`/api/embed/dashboard/${t}/dashcard/${dc}/card/${c}/${format}`, embedQuery(ps, vs)),
  };
}
