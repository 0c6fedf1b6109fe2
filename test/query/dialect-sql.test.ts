// Each clause's SQL, per dialect, as /api/dataset/native shows it: the engine-specific idioms (truncation,
// extraction, week start, binning, percentiles, string tests, intervals, LIMIT/OFFSET, quoting, null ordering) are
// the ones each engine needs.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sampleWarehouseServer, ENGINES, type Engine, type Warehouse } from './helpers/warehouses.js';

type Expect = Partial<Record<Engine | 'all', RegExp[]>>;

interface SqlCase {
  name: string;
  query: (w: Warehouse) => Record<string, unknown>;
  expect: Expect;
  /** Engines where compiling must fail with unsupported-feature. */
  unsupported?: Engine[];
}

const o = (w: Warehouse, query: Record<string, unknown>) => w.mbql({ 'source-table': w.t('ORDERS'), ...query });
const byUnit = (unit: string) => (w: Warehouse) => o(w, { aggregation: [['count']], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': unit })] });
const withExpression = (expr: (w: Warehouse) => unknown) => (w: Warehouse) => o(w, { expressions: { e: expr(w) }, fields: [['expression', 'e']], limit: 1 });
const filtered = (filter: (w: Warehouse) => unknown) => (w: Warehouse) => o(w, { aggregation: [['count']], filter: filter(w) });

const CASES: SqlCase[] = [
  {
    name: 'quoting and table qualification',
    query: (w) => o(w, { fields: [w.f('ORDERS', 'ID')], limit: 1 }),
    expect: {
      sqlite: [/^SELECT "ORDERS"\."ID" AS "ID" FROM "ORDERS" LIMIT 1$/],
      postgres: [/^SELECT "public"\."ORDERS"\."ID" AS "ID" FROM "public"\."ORDERS" LIMIT 1$/],
      mysql: [/^SELECT `ORDERS`\.`ID` AS `ID` FROM `ORDERS` LIMIT 1$/],
      duckdb: [/^SELECT "main"\."ORDERS"\."ID" AS "ID" FROM "main"\."ORDERS" LIMIT 1$/],
    },
  },
  {
    name: 'page → LIMIT/OFFSET',
    query: (w) => o(w, { fields: [w.f('ORDERS', 'ID')], page: { page: 3, items: 25 } }),
    expect: { all: [/LIMIT 25 OFFSET 50$/] },
  },
  {
    name: 'default row limit is in the SQL of unaggregated queries only',
    query: (w) => o(w, { fields: [w.f('ORDERS', 'ID')] }),
    expect: { all: [/LIMIT 1048575$/] },
  },
  {
    name: 'null ordering',
    query: (w) => o(w, { fields: [w.f('ORDERS', 'ID')], 'order-by': [['asc', w.f('ORDERS', 'DISCOUNT')], ['desc', w.f('ORDERS', 'ID')]], limit: 1 }),
    expect: { postgres: [/ASC NULLS FIRST, .* DESC NULLS LAST/], duckdb: [/ASC NULLS FIRST, .* DESC NULLS LAST/], mysql: [/"?DISCOUNT`? ASC, .* DESC LIMIT/], sqlite: [/"DISCOUNT" ASC, "ORDERS"\."ID" DESC LIMIT/] },
  },
  {
    name: 'truncation to month',
    query: byUnit('month'),
    expect: {
      postgres: [/DATE_TRUNC\('month', CAST\("public"\."ORDERS"\."CREATED_AT" AS TIMESTAMP\)\)/],
      duckdb: [/DATE_TRUNC\('month', "main"\."ORDERS"\."CREATED_AT"\)/],
      mysql: [/TIMESTAMP\(DATE_FORMAT\(`ORDERS`\.`CREATED_AT`, '%Y-%m-01'\)\)/],
      sqlite: [/STRFTIME\('%Y-%m-01 00:00:00\.000', "ORDERS"\."CREATED_AT"\)/],
      all: [/GROUP BY/, /ORDER BY/],
    },
  },
  {
    name: 'truncation to millisecond keeps the milliseconds',
    query: byUnit('millisecond'),
    expect: { mysql: [/TIMESTAMPADD\(MICROSECOND, -\(MICROSECOND\(`ORDERS`\.`CREATED_AT`\) % 1000\), `ORDERS`\.`CREATED_AT`\)/], postgres: [/DATE_TRUNC\('millisecond'/], sqlite: [/STRFTIME\('%Y-%m-%d %H:%M:%f', "ORDERS"\."CREATED_AT"\)/] },
  },
  {
    name: 'truncation to quarter',
    query: byUnit('quarter'),
    expect: { postgres: [/DATE_TRUNC\('quarter'/], duckdb: [/DATE_TRUNC\('quarter'/], mysql: [/MAKEDATE\(YEAR\(`ORDERS`\.`CREATED_AT`\), 1\) \+ INTERVAL \(QUARTER\(`ORDERS`\.`CREATED_AT`\) - 1\) QUARTER/], sqlite: [/PRINTF\('%02d'/] },
  },
  {
    name: 'truncation to week starts on start-of-week (Sunday)',
    query: byUnit('week'),
    expect: { postgres: [/EXTRACT\(ISODOW FROM DATE_TRUNC\('day'/, /INTERVAL '1 day'/], duckdb: [/ISODOW/, /to_days/], mysql: [/WEEKDAY\(/, /TIMESTAMPADD\(DAY/], sqlite: [/STRFTIME\('%w'/, / days'\)/] },
  },
  {
    name: 'day-of-week extraction',
    query: byUnit('day-of-week'),
    expect: { postgres: [/EXTRACT\(ISODOW FROM/], duckdb: [/EXTRACT\(ISODOW FROM/], mysql: [/WEEKDAY\(`ORDERS`\.`CREATED_AT`\) \+ 1/], sqlite: [/STRFTIME\('%w', "ORDERS"\."CREATED_AT"\)/] },
  },
  {
    name: 'hour-of-day, month-of-year, day-of-year extraction',
    query: (w) => o(w, { aggregation: [['count']], breakout: ['hour-of-day', 'month-of-year', 'day-of-year'].map((u) => w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': u })) }),
    expect: { postgres: [/EXTRACT\(HOUR FROM/, /EXTRACT\(MONTH FROM/, /EXTRACT\(DOY FROM/], mysql: [/HOUR\(/, /MONTH\(/, /DAYOFYEAR\(/], sqlite: [/STRFTIME\('%H'/, /STRFTIME\('%m'/, /STRFTIME\('%j'/], duckdb: [/EXTRACT\(HOUR FROM/, /DAYOFYEAR\(/] },
  },
  {
    name: 'week-of-year counts weeks from the one holding January 1st',
    query: byUnit('week-of-year'),
    expect: { postgres: [/DATE_TRUNC\('year'/, /CAST\(FLOOR/], mysql: [/DATEDIFF\(/, /FLOOR\(/], sqlite: [/JULIANDAY\(/], duckdb: [/DATE_DIFF\('day'/] },
  },
  {
    name: 'binning',
    query: (w) => o(w, { aggregation: [['count']], breakout: [w.f('ORDERS', 'TOTAL', { binning: { strategy: 'bin-width', 'bin-width': 10 } })] }),
    expect: {
      postgres: [/FLOOR\(\(CAST\("public"\."ORDERS"\."TOTAL" AS DOUBLE PRECISION\) - 0\) \/ 10\) \* 10 \+ 0/, /GROUP BY \(FLOOR/],
      duckdb: [/FLOOR\(\(CAST\("main"\."ORDERS"\."TOTAL" AS DOUBLE\) - 0\) \/ 10\)/],
      // Engines with `?` placeholders group by position, so the same bound values aren't needed twice.
      mysql: [/CAST\(`ORDERS`\.`TOTAL` AS DOUBLE\)/, /GROUP BY 1 ORDER BY 1 ASC/],
      sqlite: [/CAST\("ORDERS"\."TOTAL" AS REAL\)/, /GROUP BY 1 ORDER BY 1 ASC/],
    },
  },
  {
    name: 'median and percentile',
    query: (w) => o(w, { aggregation: [['median', w.f('ORDERS', 'TOTAL')], ['percentile', w.f('ORDERS', 'TOTAL'), 0.9]] }),
    expect: {
      postgres: [/PERCENTILE_CONT\(0\.5\) WITHIN GROUP \(ORDER BY/, /PERCENTILE_CONT\(0\.9\)/],
      duckdb: [/QUANTILE_CONT\(CAST\("main"\."ORDERS"\."TOTAL" AS DOUBLE\), 0\.5\)/],
      sqlite: [/PERCENTILE_CONT\(CAST\("ORDERS"\."TOTAL" AS REAL\), 0\.9\)/],
      // MariaDB: a window function over the same rows, one value per group, joined back.
      mysql: [/^SELECT MAX\(`percentiles__window`\.`p0`\) AS `median`, MAX\(`percentiles__window`\.`p1`\) AS `percentile` FROM `ORDERS` LEFT JOIN \(SELECT DISTINCT PERCENTILE_CONT\(0\.5\) WITHIN GROUP \(ORDER BY CAST\(`ORDERS`\.`TOTAL` AS DOUBLE\)\) OVER \(\) AS `p0`, PERCENTILE_CONT\(0\.9\) .* OVER \(\) AS `p1` FROM `ORDERS`\) AS `percentiles__window` ON 1 = 1$/],
    },
  },
  {
    name: 'median by group: MariaDB partitions its window by the breakouts and joins NULL-safely',
    query: (w) => o(w, { aggregation: [['median', w.f('ORDERS', 'TOTAL')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], filter: ['>', w.f('ORDERS', 'QUANTITY'), 2] }),
    expect: {
      mysql: [/OVER \(PARTITION BY TIMESTAMP\(DATE_FORMAT\(`ORDERS`\.`CREATED_AT`, '%Y-01-01'\)\)\) AS `p0` FROM `ORDERS` WHERE \(`ORDERS`\.`QUANTITY` > 2\)\) AS `percentiles__window` ON \(TIMESTAMP\(DATE_FORMAT\(`ORDERS`\.`CREATED_AT`, '%Y-01-01'\)\) <=> `percentiles__window`\.`k0`\)/,/GROUP BY TIMESTAMP/],
      postgres: [/PERCENTILE_CONT\(0\.5\) WITHIN GROUP/],
    },
  },
  {
    name: 'standard deviation and variance',
    query: (w) => o(w, { aggregation: [['stddev', w.f('ORDERS', 'TOTAL')], ['var', w.f('ORDERS', 'TOTAL')]] }),
    expect: { postgres: [/STDDEV_POP\(/, /VAR_POP\(/], mysql: [/STDDEV_POP\(/, /VAR_POP\(/], duckdb: [/STDDEV_POP\(/], sqlite: [/SQRT\(MAX\(AVG\(/] },
  },
  {
    name: 'average is over floats (no integer averages on MySQL)',
    query: (w) => o(w, { aggregation: [['avg', w.f('ORDERS', 'QUANTITY')]] }),
    expect: { mysql: [/AVG\(CAST\(`ORDERS`\.`QUANTITY` AS DOUBLE\)\)/], postgres: [/AVG\(CAST\(.* AS DOUBLE PRECISION\)\)/], sqlite: [/AVG\(CAST\(.* AS REAL\)\)/] },
  },
  {
    name: 'division is floating and safe',
    query: withExpression((w) => ['/', w.f('ORDERS', 'QUANTITY'), w.f('ORDERS', 'QUANTITY')]),
    expect: { all: [/NULLIF\(/], postgres: [/DOUBLE PRECISION\) \/ NULLIF/], sqlite: [/AS REAL\) \/ NULLIF/] },
  },
  {
    name: 'contains, case-sensitive and not',
    query: filtered((w) => ['and', ['contains', w.f('ORDERS', 'ID'), 'x'], ['contains', w.f('ORDERS', 'ID'), 'y', { 'case-sensitive': false }]]),
    expect: {
      postgres: [/STRPOS\(CAST\("public"\."ORDERS"\."ID" AS TEXT\), 'x'\) > 0/, /STRPOS\(LOWER\(/],
      duckdb: [/STRPOS\(/],
      mysql: [/LOCATE\(CAST\(CONVERT\('x' USING utf8mb4\) AS BINARY\), CAST\(CONVERT\(CAST\(`ORDERS`\.`ID` AS CHAR\) USING utf8mb4\) AS BINARY\)\) > 0/, /LOCATE\(LOWER\('y'\), LOWER\(/],
      sqlite: [/INSTR\(CAST\("ORDERS"\."ID" AS TEXT\), 'x'\) > 0/, /INSTR\(UNICODE_LOWER\(/],
    },
  },
  {
    name: 'text = / != / IN compare exactly (byte-wise on MySQL, whose collations ignore case)',
    query: (w) => w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['and', ['=', w.f('PRODUCTS', 'CATEGORY'), 'Gizmo'], ['!=', w.f('PRODUCTS', 'VENDOR'), 'a'], ['=', w.f('PRODUCTS', 'TITLE'), 'b', 'c']] }),
    expect: {
      mysql: [
        /\(`PRODUCTS`\.`CATEGORY` = 'Gizmo' AND CAST\(CONVERT\(`PRODUCTS`\.`CATEGORY` USING utf8mb4\) AS BINARY\) = CAST\(CONVERT\('Gizmo' USING utf8mb4\) AS BINARY\)\)/,
        /CAST\(CONVERT\(`PRODUCTS`\.`VENDOR` USING utf8mb4\) AS BINARY\) <> CAST\(CONVERT\('a' USING utf8mb4\) AS BINARY\)\) OR `PRODUCTS`\.`VENDOR` IS NULL/,
        /`PRODUCTS`\.`TITLE` IN \('b', 'c'\) AND CAST\(CONVERT\(`PRODUCTS`\.`TITLE` USING utf8mb4\) AS BINARY\) IN \(/,
      ],
      postgres: [/\("public"\."PRODUCTS"\."CATEGORY" = 'Gizmo'\)/, /\(\("public"\."PRODUCTS"\."VENDOR" <> 'a'\) OR "public"\."PRODUCTS"\."VENDOR" IS NULL\)/, /"TITLE" IN \('b', 'c'\)/],
      sqlite: [/\("PRODUCTS"\."CATEGORY" = 'Gizmo'\)/],
    },
  },
  {
    name: '!=, does-not-contain and not contains keep NULLs',
    query: filtered((w) => ['and', ['does-not-contain', w.f('ORDERS', 'ID'), 'x'], ['not', ['starts-with', w.f('ORDERS', 'ID'), 'y']], ['!=', w.f('ORDERS', 'DISCOUNT'), 1]]),
    expect: { all: [/\(\(NOT .*\) OR .*ID. IS NULL\)/, /\(\(.*DISCOUNT. <> 1\) OR .*DISCOUNT. IS NULL\)/] },
  },
  {
    name: 'starts-with and ends-with',
    query: filtered((w) => ['and', ['starts-with', w.f('ORDERS', 'ID'), 'a'], ['ends-with', w.f('ORDERS', 'ID'), 'b']]),
    expect: { postgres: [/SUBSTRING\(.* FROM 1 FOR CHAR_LENGTH\('a'\)\) = 'a'/, /RIGHT\(/], mysql: [/LEFT\(CAST\(/, /RIGHT\(CAST\(/], sqlite: [/INSTR\(CAST\("ORDERS"\."ID" AS TEXT\), 'a'\) = 1/, /SUBSTR\(CAST\(CAST\("ORDERS"\."ID" AS TEXT\) AS BLOB\), -LENGTH\(CAST\('b' AS BLOB\)\)\) = CAST\('b' AS BLOB\)/] },
  },
  {
    name: 'temporal filters are bounds computed once, as typed literals',
    query: filtered((w) => ['between', w.f('ORDERS', 'CREATED_AT'), '2024-01-01', '2024-01-31']),
    expect: {
      postgres: [/>= CAST\('2024-01-01T00:00:00\.000' AS timestamp\) AND .* < CAST\('2024-02-01T00:00:00\.000' AS timestamp\)/],
      duckdb: [/>= CAST\('2024-01-01T00:00:00\.000' AS TIMESTAMP\)/],
      mysql: [/>= CAST\('2024-01-01 00:00:00\.000' AS DATETIME\(6\)\)/],
      sqlite: [/STRFTIME\('%Y-%m-%d %H:%M:%f', "ORDERS"\."CREATED_AT"\) >= '2024-01-01 00:00:00\.000'/],
    },
  },
  {
    name: 'a DATE column is compared with dates',
    query: (w) => w.mbql({ 'source-table': w.t('PEOPLE'), aggregation: [['count']], filter: ['=', w.f('PEOPLE', 'BIRTH_DATE'), '1990-05-05'] }),
    expect: { postgres: [/>= CAST\('1990-05-05' AS date\) AND .* < CAST\('1990-05-06' AS date\)/], sqlite: [/DATE\("PEOPLE"\."BIRTH_DATE"\) >= '1990-05-05'/], mysql: [/CAST\('1990-05-05' AS DATE\)/] },
  },
  {
    name: 'datetime-add',
    query: withExpression((w) => ['datetime-add', w.f('ORDERS', 'CREATED_AT'), 2, 'month']),
    expect: { postgres: [/\+ \(2\) \* INTERVAL '1 month'/], mysql: [/TIMESTAMPADD\(MONTH, 2, `ORDERS`\.`CREATED_AT`\)/], duckdb: [/to_months\(CAST\(2 AS INTEGER\)\)/], sqlite: [/' months'\), 'floor'\)/] },
  },
  {
    name: 'datetime-diff in days',
    query: withExpression((w) => ['datetime-diff', w.f('ORDERS', 'CREATED_AT'), w.f('ORDERS', 'CREATED_AT'), 'day']),
    expect: { mysql: [/DATEDIFF\(/], duckdb: [/DATE_DIFF\('day'/], sqlite: [/JULIANDAY\(/], postgres: [/AS DATE\) - CAST\(/] },
  },
  {
    name: 'datetime-diff in hours counts elapsed time',
    query: withExpression((w) => ['datetime-diff', w.f('ORDERS', 'CREATED_AT'), w.f('ORDERS', 'CREATED_AT'), 'hour']),
    expect: { postgres: [/EXTRACT\(EPOCH FROM/], mysql: [/TIMESTAMPDIFF\(MICROSECOND/], sqlite: [/UNIXEPOCH\(.*'subsec'\)/], duckdb: [/EPOCH_US\(/] },
  },
  {
    name: 'convert-timezone: AT TIME ZONE where the engine knows zones, offsets computed in JS elsewhere (DST included)',
    query: withExpression((w) => ['convert-timezone', w.f('ORDERS', 'CREATED_AT'), 'America/New_York', 'UTC']),
    expect: {
      postgres: [/AT TIME ZONE 'UTC'\) AT TIME ZONE 'America\/New_York'/],
      duckdb: [/TIMEZONE\('America\/New_York', TIMEZONE\('UTC'/],
      mysql: [/TIMESTAMPADD\(MINUTE, \(CASE WHEN `ORDERS`\.`CREATED_AT` < CAST\('\d{4}-\d\d-\d\d \d\d:00:00' AS DATETIME\) THEN/, /THEN -240 ELSE -300 END|THEN -300 ELSE -240 END/],
      sqlite: [/CASE WHEN STRFTIME\('%Y-%m-%d %H:%M:%f', "ORDERS"\."CREATED_AT"\) < '\d{4}-\d\d-\d\d \d\d:00:00\.000'/, /' minutes'\)\)/],
    },
  },
  {
    name: 'convert-timezone to a zone without DST is one shift',
    query: withExpression((w) => ['convert-timezone', w.f('ORDERS', 'CREATED_AT'), 'Asia/Kolkata']),
    expect: { mysql: [/TIMESTAMPADD\(MINUTE, 330, `ORDERS`\.`CREATED_AT`\)/], sqlite: [/CAST\(330 AS TEXT\) \|\| ' minutes'/] },
  },
  {
    name: 'regex-match-first',
    query: withExpression((w) => ['regex-match-first', ['text', w.f('ORDERS', 'ID')], '[0-9]+']),
    expect: { postgres: [/SUBSTRING\(.* FROM CONCAT\('\(', '\[0-9\]\+', '\)'\)\)/], mysql: [/REGEXP_SUBSTR\(/], duckdb: [/REGEXP_EXTRACT\(/], sqlite: [/REGEXP_SUBSTR\(CAST\("ORDERS"\."ID" AS TEXT\), '\[0-9\]\+'\)/] },
  },
  {
    name: 'concat skips nulls on every engine',
    query: withExpression((w) => ['concat', w.f('ORDERS', 'ID'), '-', w.f('ORDERS', 'DISCOUNT')]),
    expect: { mysql: [/CONCAT_WS\('', CAST\(/], postgres: [/CONCAT\(CAST\(/], sqlite: [/CONCAT\(/] },
  },
  {
    name: 'round half away from zero',
    query: withExpression((w) => ['round', w.f('ORDERS', 'TOTAL')]),
    expect: { postgres: [/ROUND\(CAST\(.* AS NUMERIC\)\)/], mysql: [/ROUND\(CAST\(.* AS DECIMAL\(65, 15\)\)\)/], sqlite: [/ROUND\(/] },
  },
  {
    name: 'cumulative sum is a window over the grouped query',
    query: (w) => o(w, { aggregation: [['cum-sum', w.f('ORDERS', 'TOTAL')]], breakout: [w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })] }),
    expect: { all: [/SUM\(.source.\..sum.\) OVER \(ORDER BY .source.\..CREATED_AT. ASC[A-Z ]* ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW\)/, /FROM \(SELECT .* GROUP BY .*\) AS .source./] },
  },
  {
    name: 'cumulative count runs along the finest temporal breakout, partitioned by the others, in the order-by direction',
    query: (w) => o(w, { aggregation: [['cum-count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY'), w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })], 'order-by': [['desc', w.f('ORDERS', 'CREATED_AT', { 'temporal-unit': 'year' })]] }),
    expect: { all: [/SUM\(.source.\..count.\) OVER \(PARTITION BY .source.\..CATEGORY. ORDER BY .source.\..CREATED_AT. DESC[A-Z ]* ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW\)/] },
  },
  {
    name: 'implicit join alias',
    query: (w) => o(w, { aggregation: [['count']], breakout: [w.via('ORDERS', 'PRODUCT_ID', 'PRODUCTS', 'CATEGORY')] }),
    expect: { all: [/LEFT JOIN .*PRODUCTS.* AS .PRODUCTS__via__PRODUCT_ID. ON \(.*PRODUCT_ID. = .PRODUCTS__via__PRODUCT_ID.\..ID.\)/] },
  },
  {
    name: 'full join',
    query: (w) => o(w, { joins: [{ 'source-table': w.t('PEOPLE'), alias: 'U', strategy: 'full-join', fields: 'none', condition: ['=', w.f('ORDERS', 'USER_ID'), w.f('PEOPLE', 'ID', { 'join-alias': 'U' })] }], aggregation: [['count']] }),
    expect: { postgres: [/FULL OUTER JOIN "public"\."PEOPLE" AS "U"/], sqlite: [/FULL OUTER JOIN "PEOPLE" AS "U"/], duckdb: [/FULL OUTER JOIN/] },
    unsupported: ['mysql'],
  },
  {
    name: 'nested query',
    query: (w) => w.mbql({ 'source-query': { 'source-table': w.t('ORDERS'), aggregation: [['count']], breakout: [w.f('ORDERS', 'USER_ID')] }, aggregation: [['avg', ['field', 'count', { 'base-type': 'type/Integer' }]]] }),
    expect: { all: [/^SELECT AVG\(CAST\(.source.\..count. AS [A-Z ]+\)\) AS .avg. FROM \(SELECT .* GROUP BY .*\) AS .source.$/] },
  },
  {
    name: 'literal values are bound, and shown escaped',
    query: (w) => w.mbql({ 'source-table': w.t('PRODUCTS'), aggregation: [['count']], filter: ['=', w.f('PRODUCTS', 'VENDOR'), "it's"] }),
    expect: { mysql: [/= 'it''s'/], postgres: [/= 'it''s'/], sqlite: [/= 'it''s'/], duckdb: [/= 'it''s'/] },
  },
  {
    name: 'inside: two BETWEENs on latitude and longitude',
    query: (w) => w.mbql({ 'source-table': w.t('PEOPLE'), aggregation: [['count']], filter: ['inside', w.f('PEOPLE', 'LATITUDE'), w.f('PEOPLE', 'LONGITUDE'), 45, -110, 35, -90] }),
    expect: { all: [/LATITUDE.? BETWEEN 35 AND 45 AND .*LONGITUDE.? BETWEEN -110 AND -90\)$/] },
  },
  {
    name: 'share, count-where, sum-where and distinct-where are conditional aggregates',
    query: (w) => o(w, { aggregation: [['share', ['>', w.f('ORDERS', 'QUANTITY'), 2]], ['count-where', ['>', w.f('ORDERS', 'QUANTITY'), 2]], ['sum-where', w.f('ORDERS', 'TOTAL'), ['>', w.f('ORDERS', 'QUANTITY'), 2]], ['distinct-where', w.f('ORDERS', 'USER_ID'), ['>', w.f('ORDERS', 'QUANTITY'), 2]]] }),
    expect: {
      all: [/SUM\(CASE WHEN .*QUANTITY.* > 2\) THEN 1 ELSE 0 END\).* \/ NULLIF\(.*COUNT\(\*\)/, /COUNT\(CASE WHEN .*QUANTITY.* > 2\) THEN 1 END\) AS .count-where./, /SUM\(CASE WHEN .* THEN .*TOTAL. ELSE 0 END\) AS .sum-where./, /COUNT\(DISTINCT CASE WHEN .* THEN .*USER_ID. END\) AS .distinct-where./],
    },
  },
  {
    name: 'URL functions: regular expressions per engine',
    query: withExpression((w) => ['domain', ['text', w.f('ORDERS', 'ID')]]),
    expect: { postgres: [/REGEXP_REPLACE\(SUBSTRING\(/, / ~ /], mysql: [/REGEXP_REPLACE\(REGEXP_SUBSTR\(/, / REGEXP /], sqlite: [/REGEXP_REPLACE\(REGEXP_SUBSTR\(/, /REGEXP_LIKE\(/], duckdb: [/REGEXP_MATCHES\(/, /REGEXP_EXTRACT\(/] },
  },
  {
    name: 'split-part per engine',
    query: withExpression((w) => ['split-part', ['text', w.f('ORDERS', 'ID')], '-', 2]),
    expect: { postgres: [/SPLIT_PART\(CAST\("public"\."ORDERS"\."ID" AS TEXT\), '-', CAST\(2 AS INTEGER\)\)/], mysql: [/SUBSTRING_INDEX\(SUBSTRING_INDEX\(/], sqlite: [/SPLIT_PART\(CAST\("ORDERS"\."ID" AS TEXT\), '-', 2\)/], duckdb: [/SPLIT_PART\(/] },
  },
  {
    name: 'case and coalesce: mixed text and numbers become text the same way everywhere',
    query: withExpression((w) => ['coalesce', ['case', [[['>', w.f('ORDERS', 'QUANTITY'), 2], 'many']], { default: w.f('ORDERS', 'TOTAL') }], 'none']),
    expect: {
      all: [/COALESCE\(\(CASE WHEN .* THEN 'many' ELSE /],
      postgres: [/ELSE CAST\(CAST\("public"\."ORDERS"\."TOTAL" AS DOUBLE PRECISION\) AS TEXT\) END\), 'none'\)/],
      duckdb: [/CASE WHEN CAST\("main"\."ORDERS"\."TOTAL" AS DOUBLE\) = FLOOR\(/],
      sqlite: [/ELSE FLOAT_TEXT\("ORDERS"\."TOTAL"\) END\)/],
      mysql: [/ELSE CAST\(CAST\(`ORDERS`\.`TOTAL` AS DOUBLE\) AS CHAR\) END\)/],
    },
  },
  {
    name: 'text of a timestamp is written like PostgreSQL writes it',
    query: withExpression((w) => ['text', w.f('ORDERS', 'CREATED_AT')]),
    expect: { postgres: [/CAST\(CAST\("public"\."ORDERS"\."CREATED_AT" AS TIMESTAMP\) AS TEXT\)/], mysql: [/CASE WHEN MICROSECOND\(`ORDERS`\.`CREATED_AT`\) = 0 THEN DATE_FORMAT\(/], sqlite: [/RTRIM\(STRFTIME\('%Y-%m-%d %H:%M:%f', "ORDERS"\."CREATED_AT"\), '0'\)/] },
  },
  {
    name: 'integer of text: a number pattern, then rounding',
    query: withExpression((w) => ['integer', ['text', w.f('ORDERS', 'ID')]]),
    expect: { postgres: [/CASE WHEN \(TRIM\(.*\) ~ '\^\[\+-\]\?/, /ROUND\(CAST\(/], mysql: [/REGEXP '\^\[\+-\]/], sqlite: [/REGEXP_LIKE\(TRIM\(/], duckdb: [/REGEXP_MATCHES\(TRIM\(/] },
  },
  ...(['left-join', 'right-join', 'inner-join'] as const).map((strategy) => ({
    name: `join strategy ${strategy}`,
    query: (w: Warehouse) => o(w, { joins: [{ 'source-table': w.t('PRODUCTS'), alias: 'P', strategy, fields: 'none', condition: ['=', w.f('ORDERS', 'PRODUCT_ID'), w.f('PRODUCTS', 'ID', { 'join-alias': 'P' })] }], aggregation: [['count']] }),
    expect: { all: [new RegExp(`${({ 'left-join': 'LEFT JOIN', 'right-join': 'RIGHT JOIN', 'inner-join': 'INNER JOIN' } as const)[strategy]} .*PRODUCTS.* AS .P. ON \\(.*PRODUCT_ID. = .P.\\..ID.\\)`)] },
  })),
  {
    name: 'time-interval relative to now',
    query: filtered((w) => ['time-interval', w.f('ORDERS', 'CREATED_AT'), -1, 'year']),
    expect: { all: [/>= .*\d{4}-01-01.* AND .* < .*\d{4}-01-01/] },
  },
];

describe('SQL per dialect (/api/dataset/native)', () => {
  const env = sampleWarehouseServer();

  for (const c of CASES) {
    test(c.name, async () => {
      for (const e of ENGINES) {
        const r = await env.admin.post('/api/dataset/native', { ...c.query(env.wh[e]), pretty: false });
        if (c.unsupported?.includes(e)) {
          assert.equal(r.status, 400, `${e} should refuse`);
          assert.equal(r.body.error_type, 'unsupported-feature');
          continue;
        }
        assert.equal(r.status, 200, `${e}: ${r.text}`);
        const sql = r.body.query as string;
        for (const re of [...(c.expect.all ?? []), ...(c.expect[e] ?? [])]) assert.match(sql, re, `${e}: ${sql}`);
        // The SQL shown runs as is on its engine.
        const run = await env.admin.post('/api/dataset', env.wh[e].native(sql));
        assert.equal(run.body.status, 'completed', `${e}: ${run.body.error}\n${sql}`);
      }
    });
  }

  test('native queries are shown with their values substituted', async () => {
    for (const e of ENGINES) {
      const w = env.wh[e];
      const quote = (s: string) => (e === 'mysql' ? s.replace(/"/g, '`') : s);
      const r = await env.admin.post('/api/dataset/native', w.native(quote('SELECT COUNT(*) FROM "PRODUCTS" WHERE "CATEGORY" = {{cat}} [[AND "PRICE" > {{min}}]]'), { cat: { name: 'cat', type: 'text' }, min: { name: 'min', type: 'number' } }, { parameters: [{ type: 'category', target: ['variable', ['template-tag', 'cat']], value: "Gizmo's" }] }));
      assert.equal(r.status, 200);
      assert.match(r.body.query, /= 'Gizmo''s'\s*$/);
    }
  });
});
