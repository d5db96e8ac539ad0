// What report SQL may call and cast to. An allowlist: anything not named here is refused, so a
// function PostgreSQL adds tomorrow is refused until someone reads it and lists it.

const aggregates = [
  'count', 'sum', 'avg', 'min', 'max', 'stddev', 'stddev_pop', 'stddev_samp', 'variance', 'var_pop', 'var_samp',
  'string_agg', 'array_agg', 'bool_and', 'bool_or', 'every', 'percentile_cont', 'percentile_disc', 'mode',
  'corr', 'covar_pop', 'covar_samp', 'regr_slope', 'regr_intercept', 'regr_r2', 'regr_count', 'regr_avgx', 'regr_avgy',
  'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg', 'any_value',
];
const windowFunctions = ['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value'];
const math = [
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'trunc', 'sign', 'sqrt', 'cbrt', 'power', 'pow', 'exp', 'ln', 'log', 'log10',
  'mod', 'div', 'pi', 'degrees', 'radians', 'width_bucket', 'gcd', 'lcm', 'scale', 'random', 'num_nulls', 'num_nonnulls',
];
const text = [
  'length', 'char_length', 'character_length', 'octet_length', 'lower', 'upper', 'initcap', 'btrim', 'ltrim', 'rtrim', 'trim',
  'substring', 'substr', 'position', 'strpos', 'replace', 'split_part', 'concat', 'concat_ws', 'left', 'right', 'reverse',
  'lpad', 'rpad', 'repeat', 'to_char', 'to_number', 'to_date', 'to_timestamp', 'md5', 'starts_with', 'translate', 'ascii', 'chr',
  'regexp_replace', 'regexp_match', 'regexp_matches', 'regexp_like', 'regexp_count', 'regexp_substr', 'regexp_split_to_array',
  'string_to_array', 'array_to_string', 'overlay', 'similar_to_escape', 'like_escape',
];
const dateTime = [
  'now', 'date_trunc', 'date_part', 'extract', 'age', 'make_date', 'make_time', 'make_timestamp', 'make_timestamptz', 'make_interval',
  'justify_days', 'justify_hours', 'justify_interval', 'date_bin', 'isfinite', 'timezone', 'overlaps', 'clock_timestamp', 'statement_timestamp', 'transaction_timestamp',
];
const arrays = ['array_length', 'cardinality', 'unnest', 'array_position', 'array_positions', 'array_remove', 'array_append', 'array_prepend', 'array_cat', 'array_lower', 'array_upper'];
const json = [
  'json_build_object', 'jsonb_build_object', 'json_build_array', 'jsonb_build_array', 'to_json', 'to_jsonb', 'row_to_json',
  'json_array_elements', 'jsonb_array_elements', 'json_array_elements_text', 'jsonb_array_elements_text', 'json_each', 'jsonb_each',
  'json_each_text', 'jsonb_each_text', 'jsonb_extract_path', 'jsonb_extract_path_text', 'json_extract_path', 'json_extract_path_text',
  'jsonb_typeof', 'json_typeof', 'jsonb_array_length', 'json_array_length', 'jsonb_to_recordset', 'json_to_recordset', 'jsonb_object_keys', 'json_object_keys',
];
const grouping = ['grouping'];

/** Functions report SQL may call, unqualified or as pg_catalog.name. */
export const allowedFunctions: ReadonlySet<string> = new Set([...aggregates, ...windowFunctions, ...math, ...text, ...dateTime, ...arrays, ...json, ...grouping, 'generate_series']);

/** Functions whose output grows with an argument: that argument must be a constant no larger than the limit. */
export const sizedFunctions: ReadonlyMap<string, number> = new Map([
  ['repeat', 1],
  ['lpad', 1],
  ['rpad', 1],
]);
export const MAX_CONSTANT_SIZE = 10_000;

/** Type names a report may cast to (as the parser names them: int4 for integer, float8 for double precision). */
export const allowedTypes: ReadonlySet<string> = new Set([
  'int2', 'int4', 'int8', 'smallint', 'integer', 'int', 'bigint', 'numeric', 'decimal', 'float4', 'float8', 'real', 'float',
  'text', 'varchar', 'bpchar', 'char', 'character', 'bool', 'boolean', 'date', 'time', 'timetz', 'timestamp', 'timestamptz',
  'interval', 'json', 'jsonb', 'uuid',
]);
