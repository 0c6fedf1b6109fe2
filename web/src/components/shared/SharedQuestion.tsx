// A public or embedded question: its filters, its result drawn as the card says, downloads.

import { useMemo } from 'react';
import { api } from '../../api/client';
import type { Card, QueryResult } from '../../api/types';
import { parseHashOptions } from '../../lib/hash-options';
import { useApi } from '../../lib/useApi';
import { useHash } from '../../lib/useHash';
import { Loaded } from '../Loaded';
import { LazyChart } from '../LazyChart';
import { QueryFailure } from '../QueryFailure';
import { Downloads } from './Downloads';
import { ParameterInputs } from './ParameterInputs';
import { SharedFrame } from './SharedFrame';
import type { SharedSource } from './source';
import { useParameterValues } from './useParameterValues';

function Result({ source, card }: { source: SharedSource; card: Card }) {
  const options = parseHashOptions(useHash());
  const parameters = useMemo(() => card.parameters ?? [], [card]);
  const [values, setValue] = useParameterValues(parameters);
  const key = JSON.stringify(values);
  const result = useApi((signal) => api.get<QueryResult>(source.cardQueryPath(parameters, values), { signal, allowUnauthorized: true }), [source, key]);
  return (
    <SharedFrame title={card.name} options={options} actions={options.downloads ? <Downloads href={(format) => source.cardExportPath(format, parameters, values)} /> : undefined}>
      <ParameterInputs parameters={parameters} values={values} hidden={options.hideParameters} onChange={setValue} />
      <Loaded state={result}>{(r) => (r.status === 'failed' ? <QueryFailure result={r} /> : <LazyChart data={r.data} display={card.display} settings={card.visualization_settings} name={card.name} height={420} />)}</Loaded>
    </SharedFrame>
  );
}

export function SharedQuestion({ source }: { source: SharedSource }) {
  const card = useApi((signal) => api.get<Card>(source.cardPath, { signal, allowUnauthorized: true }), [source]);
  return <Loaded state={card}>{(c) => <Result source={source} card={c} />}</Loaded>;
}
