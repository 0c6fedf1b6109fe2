// Makes resources/geojson/{us-states,world}.json, the built-in maps of GET /api/geojson/:key, from public-domain
// boundaries packaged on npm: U.S. Census Bureau states (us-atlas, ISC: states-10m.json) and Natural Earth
// countries (world-atlas, ISC: countries-110m.json), with ISO 3166 codes from i18n-iso-countries (MIT: codes.json).
// Properties follow Metabase's built-in maps: us_states keys regions by STATE (postal code), world_countries by
// ISO_A2; both name them in NAME.
//
//   npm pack us-atlas@3.0.1 world-atlas@2.0.2 i18n-iso-countries@7.14.0   (then untar each)
//   node scripts/build-geojson.mjs <us-atlas>/states-10m.json <world-atlas>/countries-110m.json <i18n-iso-countries>/codes.json

import { readFileSync, writeFileSync } from 'node:fs';

// TopoJSON → GeoJSON: arcs are delta-encoded and quantized; a negative arc index means the arc reversed.
function decodeArcs(topology) {
  const [sx, sy] = topology.transform.scale;
  const [tx, ty] = topology.transform.translate;
  return topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [round(x * sx + tx), round(y * sy + ty)];
    });
  });
}
const round = (v) => Math.round(v * 1e5) / 1e5;

function ring(arcs, indexes) {
  const points = [];
  for (const index of indexes) {
    const arc = index < 0 ? [...arcs[~index]].reverse() : arcs[index];
    points.push(...(points.length ? arc.slice(1) : arc));
  }
  return points;
}

function geometry(arcs, g) {
  if (g.type === 'Polygon') return { type: 'Polygon', coordinates: g.arcs.map((r) => ring(arcs, r)) };
  if (g.type === 'MultiPolygon') return { type: 'MultiPolygon', coordinates: g.arcs.map((p) => p.map((r) => ring(arcs, r))) };
  return null;
}

function features(topology, object, properties) {
  const arcs = decodeArcs(topology);
  return topology.objects[object].geometries
    .map((g) => ({ g, props: properties(g) }))
    .filter(({ g, props }) => props && geometry(arcs, g))
    .map(({ g, props }) => ({ type: 'Feature', properties: props, geometry: geometry(arcs, g) }));
}

const STATES = {
  '01': 'AL', '02': 'AK', '04': 'AZ', '05': 'AR', '06': 'CA', '08': 'CO', '09': 'CT', '10': 'DE', '11': 'DC', '12': 'FL',
  '13': 'GA', '15': 'HI', '16': 'ID', '17': 'IL', '18': 'IN', '19': 'IA', '20': 'KS', '21': 'KY', '22': 'LA', '23': 'ME',
  '24': 'MD', '25': 'MA', '26': 'MI', '27': 'MN', '28': 'MS', '29': 'MO', '30': 'MT', '31': 'NE', '32': 'NV', '33': 'NH',
  '34': 'NJ', '35': 'NM', '36': 'NY', '37': 'NC', '38': 'ND', '39': 'OH', '40': 'OK', '41': 'OR', '42': 'PA', '44': 'RI',
  '45': 'SC', '46': 'SD', '47': 'TN', '48': 'TX', '49': 'UT', '50': 'VT', '51': 'VA', '53': 'WA', '54': 'WV', '55': 'WI',
  '56': 'WY', '60': 'AS', '66': 'GU', '69': 'MP', '72': 'PR', '78': 'VI',
};

const [statesFile, countriesFile, codesFile] = process.argv.slice(2);
if (!codesFile) throw new Error('usage: node scripts/build-geojson.mjs states-10m.json countries-110m.json codes.json');

const us = JSON.parse(readFileSync(statesFile, 'utf8'));
const states = features(us, 'states', (g) => (STATES[g.id] ? { STATE: STATES[g.id], NAME: g.properties.name } : null));

const world = JSON.parse(readFileSync(countriesFile, 'utf8'));
const alpha2 = new Map(JSON.parse(readFileSync(codesFile, 'utf8')).map(([a2, , numeric]) => [numeric, a2]));
// Natural Earth's disputed or unassigned areas have no ISO code: Metabase's map leaves them without one too
const countries = features(world, 'countries', (g) => ({ ISO_A2: alpha2.get(g.id) ?? null, NAME: g.properties.name }));

writeFileSync('resources/geojson/us-states.json', JSON.stringify({ type: 'FeatureCollection', features: states }));
writeFileSync('resources/geojson/world.json', JSON.stringify({ type: 'FeatureCollection', features: countries }));
console.log(`us-states: ${states.length} states; world: ${countries.length} countries`);
