// better-sqlite3 cannot bind JS booleans; this plugin rewrites boolean values in queries to 1/0.
// (Reads come back as 1/0 from SQLite and MySQL, true/false from PostgreSQL: see `bool()` in ./portable.ts.)

import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
  type PrimitiveValueListNode,
} from 'kysely';

class BooleanTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const transformed = super.transformValue(node);
    return typeof transformed.value === 'boolean'
      ? { ...transformed, value: transformed.value ? 1 : 0 }
      : transformed;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const transformed = super.transformPrimitiveValueList(node);
    return {
      ...transformed,
      values: transformed.values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)),
    };
  }
}

export class BooleanToIntegerPlugin implements KyselyPlugin {
  readonly #transformer = new BooleanTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
