import { Metadata, OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; `metadata` replaces the whole map. The key is immutable. */
@MinProperties(1)
export class UpdateTenantRequest {
  @OptionalEntityName()
  name?: string;

  @Metadata('Replaces the whole map.')
  metadata?: Record<string, string>;
}

export type TenantChanges = Partial<Pick<UpdateTenantRequest, 'name' | 'metadata'>>;
