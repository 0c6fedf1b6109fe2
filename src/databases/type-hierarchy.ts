// Metabase's type hierarchy, the part Quarry uses: base types, semantic types (each with the kind of value it
// applies to), relation types and coercion strategies. `isa` answers "is X a kind of Y".

const PARENTS: Record<string, string[]> = {
  'type/*': [],
  // base types
  'type/Number': ['type/*'], 'type/Integer': ['type/Number'], 'type/BigInteger': ['type/Integer'],
  'type/Float': ['type/Number'], 'type/Decimal': ['type/Float'],
  'type/Text': ['type/*'], 'type/TextLike': ['type/*'], 'type/UUID': ['type/TextLike'], 'type/IPAddress': ['type/TextLike'],
  'type/MongoBSONID': ['type/TextLike'], 'type/PostgresEnum': ['type/Text'], 'type/MySQLEnum': ['type/Text'],
  'type/Boolean': ['type/*'],
  'type/Temporal': ['type/*'], 'type/Date': ['type/Temporal'], 'type/Time': ['type/Temporal'],
  'type/TimeWithTZ': ['type/Time'], 'type/TimeWithLocalTZ': ['type/TimeWithTZ'], 'type/TimeWithZoneOffset': ['type/TimeWithTZ'],
  'type/DateTime': ['type/Temporal'], 'type/DateTimeWithTZ': ['type/DateTime'], 'type/DateTimeWithLocalTZ': ['type/DateTimeWithTZ'],
  'type/DateTimeWithZoneOffset': ['type/DateTimeWithTZ'], 'type/DateTimeWithZoneID': ['type/DateTimeWithTZ'], 'type/Instant': ['type/DateTimeWithLocalTZ'],
  'type/Collection': ['type/*'], 'type/Structured': ['type/*'], 'type/Dictionary': ['type/Collection'], 'type/Array': ['type/Collection'],
  'type/JSON': ['type/Structured', 'type/Collection'], 'type/XML': ['type/Structured', 'type/Collection'], 'type/SerializedJSON': ['type/Structured', 'type/Collection'],
  // relation types
  'type/PK': ['Relation/*'], 'type/FK': ['Relation/*'], 'Relation/*': [],
  // semantic types
  'Semantic/*': [], 'type/Category': ['Semantic/*'], 'type/Enum': ['type/Category'],
  'type/Name': ['type/Category'], 'type/Title': ['type/Category'], 'type/Company': ['type/Category'], 'type/Product': ['type/Category'],
  'type/Source': ['type/Category'], 'type/Owner': ['type/Category'], 'type/User': ['type/Category'], 'type/Subscription': ['type/Category'],
  'type/Address': ['Semantic/*'], 'type/City': ['type/Address', 'type/Category'], 'type/State': ['type/Address', 'type/Category'],
  'type/Country': ['type/Address', 'type/Category'], 'type/ZipCode': ['type/Address'],
  'type/Coordinate': ['Semantic/*'], 'type/Latitude': ['type/Coordinate', 'type/Address'], 'type/Longitude': ['type/Coordinate', 'type/Address'],
  'type/Description': ['Semantic/*'], 'type/Comment': ['Semantic/*'],
  'type/URL': ['Semantic/*'], 'type/ImageURL': ['type/URL'], 'type/AvatarURL': ['type/ImageURL'], 'type/Email': ['Semantic/*'],
  'type/Quantity': ['Semantic/*'], 'type/Score': ['Semantic/*'], 'type/Duration': ['Semantic/*'], 'type/Percentage': ['Semantic/*'],
  'type/Currency': ['Semantic/*'], 'type/Price': ['type/Currency'], 'type/Income': ['type/Currency'], 'type/Discount': ['type/Currency'],
  'type/Cost': ['type/Currency'], 'type/GrossMargin': ['type/Currency'], 'type/Share': ['type/Percentage'],
  'type/CreationTemporal': ['Semantic/*'], 'type/CreationTimestamp': ['type/CreationTemporal'], 'type/CreationDate': ['type/CreationTemporal'], 'type/CreationTime': ['type/CreationTemporal'],
  'type/JoinTemporal': ['Semantic/*'], 'type/JoinTimestamp': ['type/JoinTemporal'], 'type/JoinDate': ['type/JoinTemporal'], 'type/JoinTime': ['type/JoinTemporal'],
  'type/CancelationTemporal': ['Semantic/*'], 'type/CancelationTimestamp': ['type/CancelationTemporal'], 'type/CancelationDate': ['type/CancelationTemporal'], 'type/CancelationTime': ['type/CancelationTemporal'],
  'type/DeletionTemporal': ['Semantic/*'], 'type/DeletionTimestamp': ['type/DeletionTemporal'], 'type/DeletionDate': ['type/DeletionTemporal'], 'type/DeletionTime': ['type/DeletionTemporal'],
  'type/UpdatedTemporal': ['Semantic/*'], 'type/UpdatedTimestamp': ['type/UpdatedTemporal'], 'type/UpdatedDate': ['type/UpdatedTemporal'], 'type/UpdatedTime': ['type/UpdatedTemporal'],
  'type/Birthdate': ['Semantic/*'], 'type/FK-like': [],
};

export function isa(type: string | null | undefined, ancestor: string): boolean {
  if (!type) return false;
  if (type === ancestor) return true;
  return (PARENTS[type] ?? []).some((parent) => isa(parent, ancestor));
}

/** Types a field's `semantic_type` may be set to: semantic and relation types. */
export function isSemanticOrRelationType(type: unknown): type is string {
  return typeof type === 'string' && Object.hasOwn(PARENTS, type) && (isa(type, 'Semantic/*') || isa(type, 'Relation/*')) && type !== 'Semantic/*' && type !== 'Relation/*';
}

export function isBaseType(type: unknown): type is string {
  return typeof type === 'string' && Object.hasOwn(PARENTS, type) && !isa(type, 'Semantic/*') && !isa(type, 'Relation/*');
}

/** Coercion strategies and the effective type each produces. */
export const COERCIONS: Record<string, string> = {
  'Coercion/UNIXSeconds->DateTime': 'type/Instant',
  'Coercion/UNIXMilliSeconds->DateTime': 'type/Instant',
  'Coercion/UNIXMicroSeconds->DateTime': 'type/Instant',
  'Coercion/UNIXNanoSeconds->DateTime': 'type/Instant',
  'Coercion/ISO8601->DateTime': 'type/DateTime',
  'Coercion/ISO8601->Date': 'type/Date',
  'Coercion/ISO8601->Time': 'type/Time',
  'Coercion/YYYYMMDDHHMMSSString->Temporal': 'type/DateTime',
  'Coercion/YYYYMMDDHHMMSSBytes->Temporal': 'type/DateTime',
  'Coercion/DateTime->Date': 'type/Date',
  'Coercion/String->Float': 'type/Float',
  'Coercion/String->Integer': 'type/Integer',
  'Coercion/Float->Integer': 'type/Integer',
};

/** The base type a field must have (be a descendant of) for each coercion strategy to apply to it. */
const COERCIBLE_FROM: Record<string, string> = {
  'Coercion/UNIXSeconds->DateTime': 'type/Number',
  'Coercion/UNIXMilliSeconds->DateTime': 'type/Number',
  'Coercion/UNIXMicroSeconds->DateTime': 'type/Number',
  'Coercion/UNIXNanoSeconds->DateTime': 'type/Number',
  'Coercion/ISO8601->DateTime': 'type/Text',
  'Coercion/ISO8601->Date': 'type/Text',
  'Coercion/ISO8601->Time': 'type/Text',
  'Coercion/YYYYMMDDHHMMSSString->Temporal': 'type/Text',
  'Coercion/YYYYMMDDHHMMSSBytes->Temporal': 'type/*',
  'Coercion/DateTime->Date': 'type/DateTime',
  'Coercion/String->Float': 'type/Text',
  'Coercion/String->Integer': 'type/Text',
  'Coercion/Float->Integer': 'type/Float',
};

/** Whether `strategy` can convert values of `baseType` (e.g. UNIX seconds need a number, ISO-8601 text). */
export function isCoercible(strategy: string, baseType: string): boolean {
  const from = COERCIBLE_FROM[strategy];
  return from !== undefined && (from === 'type/*' || isa(baseType, from));
}

export function isCoercionStrategy(value: unknown): value is string {
  return typeof value === 'string' && Object.hasOwn(COERCIONS, value);
}

export function effectiveTypeOf(baseType: string, coercion: string | null | undefined): string {
  return coercion && COERCIONS[coercion] ? COERCIONS[coercion] : baseType;
}
