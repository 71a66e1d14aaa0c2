/**
 * The Canton wallet SDK targets Node 22 and calls two of its built-ins. These shims are for the
 * SDK as a client in tests on Node 20; the node itself never relies on them.
 */
type SetWithUnion = Set<unknown> & { union?: (other: Set<unknown>) => Set<unknown> };
type ObjectWithGroupBy = ObjectConstructor & { groupBy?: <T>(items: Iterable<T>, key: (item: T) => PropertyKey) => Record<PropertyKey, T[]> };

const setProto = Set.prototype as SetWithUnion;
setProto.union ??= function (this: Set<unknown>, other: Set<unknown>) {
  return new Set([...this, ...other]);
};

const object = Object as ObjectWithGroupBy;
object.groupBy ??= <T>(items: Iterable<T>, key: (item: T) => PropertyKey) => {
  const groups: Record<PropertyKey, T[]> = {};
  for (const item of items) (groups[key(item)] ??= []).push(item);
  return groups;
};
