// The card's parameters (template tags and field filters, `parameters` of the card) as inputs above the result.
// Several values are separated by commas; a change runs the question again.

import type { Parameter } from '../../api/types';
import { ParameterInputs } from '../shared/ParameterInputs';
import type { ParameterInput } from './parameters';

const NONE = new Set<string>();

export function ParametersBar({ parameters, input, onChange }: { parameters: Parameter[]; input: ParameterInput; onChange: (next: ParameterInput) => void }) {
  return <ParameterInputs parameters={parameters} values={input} hidden={NONE} onChange={(slug, values) => onChange({ ...input, [slug]: values })} />;
}
