// Field templates: an X-ray of one column. The column is the `Field` dimension; the other dimensions are its
// table's, bound as in a table X-ray, so a number can be shown over its table's time and per its categories.

import { COMMON_DIMENSIONS } from './dimensions.js';
import type { GroupDef, MetricDef, SubTemplate, Template } from './types.js';

const METRICS: MetricDef[] = [
  { name: 'Count', aggregation: 'count', title: 'Number of {{this}}' },
  { name: 'Distinct', aggregation: 'distinct', dimension: 'Field', title: 'Distinct {{Field}} values' },
  { name: 'Sum', aggregation: 'sum', dimension: 'Field', title: 'Total {{Field}}' },
  { name: 'Avg', aggregation: 'avg', dimension: 'Field', title: 'Average {{Field}}' },
  { name: 'Min', aggregation: 'min', dimension: 'Field', title: 'Smallest {{Field}}' },
  { name: 'Max', aggregation: 'max', dimension: 'Field', title: 'Largest {{Field}}' },
  { name: 'StdDev', aggregation: 'stddev', dimension: 'Field', title: 'Standard deviation of {{Field}}' },
  { name: 'AvgNumber', aggregation: 'avg', dimension: 'Number', title: 'Average {{Number}}' },
];

const GROUPS: GroupDef[] = [
  { id: 'overview', title: 'Overview', comparisonTitle: 'Overview' },
  { id: 'distribution', title: 'How {{Field}} is distributed', comparisonTitle: 'How it is distributed' },
  { id: 'time', title: '{{Field}} over time', comparisonTitle: 'Over time' },
  { id: 'seasonality', title: 'When {{this}} happen', comparisonTitle: 'When they happen' },
];

const NO_SUBTEMPLATES: SubTemplate[] = [];

const overview = [
  { title: 'Distinct values', group: 'overview', metrics: ['Distinct'], display: 'scalar' as const, score: 100, width: 6, height: 3 },
  { title: 'Null values', group: 'overview', metrics: ['Count'], filter: { kind: 'is-null' as const, dimension: 'Field' }, display: 'scalar' as const, score: 95, width: 6, height: 3 },
];

const base = {
  specificity: 1,
  title: 'A look at the {{Field}} field',
  dimensions: COMMON_DIMENSIONS,
  metrics: METRICS,
  groups: GROUPS,
  filters: ['Timestamp', 'Category', 'State'],
  subTemplates: NO_SUBTEMPLATES,
};

const NumberField: Template = {
  ...base,
  name: 'Number',
  appliesTo: 'type/Number',
  specificity: 2,
  description: 'How {{Field}} is spread, how it moved over time and how it differs between categories.',
  cards: [
    ...overview,
    { title: 'Summary statistics of {{Field}}', group: 'overview', metrics: ['Sum', 'Avg', 'Min', 'Max', 'StdDev'], display: 'table', score: 94, width: 12, height: 3 },
    { title: 'How {{Field}} is distributed', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Field', binning: true }], display: 'bar', score: 98, width: 12, height: 6 },
    { title: '{{Field}} per {{unit}}', group: 'time', metrics: ['Sum', 'Avg'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 90, width: 18, height: 6 },
    { title: 'Average {{Field}} per {{Category}}', group: 'distribution', metrics: ['Avg'], dimensions: [{ dimension: 'Category' }], display: 'row', score: 85, width: 12, height: 6, each: 2, top: 20 },
    { title: 'Average {{Field}} per state', group: 'distribution', metrics: ['Avg'], dimensions: [{ dimension: 'State' }], display: 'map', region: 'us_states', score: 80, width: 12, height: 6 },
  ],
};

const TemporalField: Template = {
  ...base,
  name: 'DateTime',
  appliesTo: 'type/Temporal',
  specificity: 2,
  description: 'When {{this}} happen by {{Field}}: over the years, the weeks and the hours.',
  cards: [
    ...overview,
    { title: '{{this}} per {{unit}}', group: 'time', metrics: ['Count'], dimensions: [{ dimension: 'Field' }], display: 'line', score: 98, width: 18, height: 6 },
    { title: 'Average {{Number}} per {{unit}}', group: 'time', metrics: ['AvgNumber'], dimensions: [{ dimension: 'Field' }], display: 'line', score: 85, width: 12, height: 6, each: 2 },
    { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Field', unit: 'day-of-week' }], display: 'bar', score: 70, width: 12, height: 6 },
    { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Field', unit: 'hour-of-day' }], display: 'bar', score: 65, width: 12, height: 6 },
    { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Field', unit: 'month-of-year' }], display: 'bar', score: 60, width: 12, height: 6 },
    { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Field', unit: 'quarter-of-year' }], display: 'bar', score: 55, width: 12, height: 6 },
  ],
};

const GenericField: Template = {
  ...base,
  name: 'GenericField',
  appliesTo: 'type/*',
  description: 'The values of {{Field}}, how often each one appears and how the numbers differ between them.',
  cards: [
    ...overview,
    { title: 'How {{Field}} is distributed', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Field' }], display: 'row', score: 98, width: 12, height: 6, top: 20 },
    { title: 'Average {{Number}} per {{Field}}', group: 'distribution', metrics: ['AvgNumber'], dimensions: [{ dimension: 'Field' }], display: 'row', score: 85, width: 12, height: 6, each: 2, top: 20 },
    { title: '{{this}} per {{unit}}', group: 'time', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 70, width: 12, height: 6 },
  ],
};

export const FIELD_TEMPLATES: Template[] = [NumberField, TemporalField, GenericField];

/** Aggregated questions: each of their aggregations is a metric shown over time, per category and per place. */
export const METRIC_TEMPLATE: Template = {
  ...base,
  name: 'GenericMetric',
  appliesTo: 'metric',
  title: 'A closer look at {{this}}',
  description: 'How {{Metric}} changes over time and between categories.',
  metrics: [{ name: 'Metric', aggregation: 'count', title: '{{Metric}}' }],
  groups: [
    { id: 'time', title: '{{Metric}} over time', comparisonTitle: 'Over time' },
    { id: 'distribution', title: '{{Metric}} per category', comparisonTitle: 'Per category' },
    { id: 'seasonality', title: 'When {{Metric}} happens', comparisonTitle: 'When it happens' },
  ],
  cards: [
    { title: '{{Metric}} per {{unit}}', group: 'time', metrics: ['Metric'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 98, width: 18, height: 6 },
    { title: '{{Metric}} per {{Category}}', group: 'distribution', metrics: ['Metric'], dimensions: [{ dimension: 'Category' }], display: 'row', score: 90, width: 12, height: 6, each: 3, top: 20 },
    { title: '{{Metric}} per {{Source}}', group: 'distribution', metrics: ['Metric'], dimensions: [{ dimension: 'Source' }], display: 'row', score: 88, width: 12, height: 6, top: 20 },
    { title: '{{Metric}} per state', group: 'distribution', metrics: ['Metric'], dimensions: [{ dimension: 'State' }], display: 'map', region: 'us_states', score: 86, width: 12, height: 6 },
    { title: '{{Metric}} by {{unit}}', group: 'seasonality', metrics: ['Metric'], dimensions: [{ dimension: 'Timestamp', unit: 'day-of-week' }], display: 'bar', score: 60, width: 12, height: 6 },
    { title: '{{Metric}} by {{unit}}', group: 'seasonality', metrics: ['Metric'], dimensions: [{ dimension: 'Timestamp', unit: 'month-of-year' }], display: 'bar', score: 50, width: 12, height: 6 },
  ],
};
