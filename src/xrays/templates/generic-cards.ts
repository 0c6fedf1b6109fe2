// The cards of the generic table template, shared by every table kind (a kind adds its own and may drop some).

import type { CardTemplate, GroupDef, MetricDef, SubTemplate } from './types.js';

export const GENERIC_METRICS: MetricDef[] = [
  { name: 'Count', aggregation: 'count', title: 'Number of {{this}}' },
  { name: 'DistinctFK', aggregation: 'distinct', dimension: 'FK', title: 'Distinct {{FK}} values' },
  { name: 'SumNumber', aggregation: 'sum', dimension: 'Number', title: 'Sum of {{Number}}' },
  { name: 'AvgNumber', aggregation: 'avg', dimension: 'Number', title: 'Average {{Number}}' },
];

export const GENERIC_GROUPS: GroupDef[] = [
  { id: 'overview', title: 'Summary', comparisonTitle: 'Summary' },
  { id: 'time', title: '{{this}} over time', comparisonTitle: 'Over time' },
  { id: 'where', title: 'Where {{this}} are', comparisonTitle: 'Where they are' },
  { id: 'distribution', title: 'How {{this}} are distributed', comparisonTitle: 'How they are distributed' },
  { id: 'seasonality', title: 'When {{this}} happen', comparisonTitle: 'When they happen' },
];

export const GENERIC_CARDS: CardTemplate[] = [
  { title: 'Total {{this}}', group: 'overview', metrics: ['Count'], display: 'scalar', score: 100, width: 6, height: 3 },
  {
    title: '{{this}} added in the last 30 days',
    group: 'overview',
    metrics: ['Count'],
    filter: { kind: 'last-30-days', dimension: 'Timestamp' },
    display: 'scalar',
    score: 96,
    width: 6,
    height: 3,
  },
  { title: 'Distinct {{FK}} values', group: 'overview', metrics: ['DistinctFK'], display: 'scalar', score: 78, width: 6, height: 3, each: 2 },
  { title: '{{this}} per {{unit}}', group: 'time', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp' }], display: 'line', score: 95, width: 12, height: 6 },
  {
    title: 'Average {{Number}} per {{unit}}',
    group: 'time',
    metrics: ['AvgNumber'],
    dimensions: [{ dimension: 'Timestamp' }],
    display: 'line',
    score: 80,
    width: 12,
    height: 6,
    each: 2,
  },
  { title: '{{this}} per state', group: 'where', metrics: ['Count'], dimensions: [{ dimension: 'State' }], display: 'map', region: 'us_states', score: 88, width: 12, height: 6 },
  { title: '{{this}} per country', group: 'where', metrics: ['Count'], dimensions: [{ dimension: 'Country' }], display: 'map', region: 'world_countries', score: 88, width: 12, height: 6 },
  { title: 'How {{Number}} is distributed', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Number', binning: true }], display: 'bar', score: 86, width: 12, height: 6, each: 4 },
  { title: '{{this}} per {{Category}}', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Category' }], display: 'row', score: 84, width: 12, height: 6, each: 4, top: 20 },
  { title: '{{this}} per {{Source}}', group: 'distribution', metrics: ['Count'], dimensions: [{ dimension: 'Source' }], display: 'row', score: 82, width: 12, height: 6, top: 20 },
  { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp', unit: 'day-of-week' }], display: 'bar', score: 60, width: 12, height: 6 },
  { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp', unit: 'hour-of-day' }], display: 'bar', score: 50, width: 12, height: 6 },
  { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp', unit: 'month-of-year' }], display: 'bar', score: 45, width: 12, height: 6 },
  { title: '{{this}} by {{unit}}', group: 'seasonality', metrics: ['Count'], dimensions: [{ dimension: 'Timestamp', unit: 'quarter-of-year' }], display: 'bar', score: 40, width: 12, height: 6 },
];

export const GENERIC_FILTERS = ['Timestamp', 'State', 'Country', 'Source', 'Category', 'City'];

export const GENERIC_SUBTEMPLATES: SubTemplate[] = [
  { name: 'Seasonality', title: 'When {{this}} happen', description: 'Days of the week, hours of the day, months and quarters.', groups: ['seasonality'] },
  { name: 'Distributions', title: 'How {{this}} are distributed', description: 'The spread of the numbers and the share of each category.', groups: ['distribution'] },
  { name: 'Locations', title: 'Where {{this}} are', description: 'The states and countries they are in.', groups: ['where'] },
  { name: 'Trends', title: '{{this}} over time', description: 'How the numbers moved over time.', groups: ['time'] },
];
