import type { OverrideLevel } from '../persistence/flow-parameter-override.entity';
import { ParameterDeclaration, ParameterType, valueFitsType } from './graph/flow-graph';

export type ValueSource = 'device' | 'device_type' | 'tenant' | 'default';

export interface ResolvedParameter {
  key: string;
  type: ParameterType;
  value: unknown;
  source: ValueSource;
}

/**
 * Each declared parameter's value: the device's override, else the device type's, else the tenant's, else the
 * declared default. An override whose value is not of the declared type is skipped (the next level applies).
 */
export function resolveParameters(
  declarations: readonly ParameterDeclaration[],
  overrides: readonly { level: OverrideLevel; key: string; value: unknown }[],
): ResolvedParameter[] {
  const order: OverrideLevel[] = ['device', 'device_type', 'tenant'];
  return declarations.map((declaration) => {
    for (const level of order) {
      const override = overrides.find((candidate) => candidate.level === level && candidate.key === declaration.key);
      if (override && valueFitsType(declaration.type, override.value)) {
        return { key: declaration.key, type: declaration.type, value: override.value, source: level };
      }
    }
    return { key: declaration.key, type: declaration.type, value: declaration.defaultValue ?? null, source: 'default' };
  });
}
