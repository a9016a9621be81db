import { Metadata, OptionalEntityName } from '../../../shared/validation/fields';

/** At least one property (design C4); `metadata` replaces the whole map. The key is immutable. */
export class UpdateTenantRequest {
  @OptionalEntityName()
  name?: string;

  @Metadata('Replaces the whole map.')
  metadata?: Record<string, string>;
}

export type TenantChanges = Partial<Pick<UpdateTenantRequest, 'name' | 'metadata'>>;
