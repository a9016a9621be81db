import { Metadata, OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; `metadata` replaces the whole map. Key and parent are immutable (no re-parenting). */
@MinProperties(1)
export class UpdateOrganizationUnitRequest {
  @OptionalEntityName()
  name?: string;

  @Metadata('Replaces the whole map.')
  metadata?: Record<string, string>;
}

export type OrganizationUnitChanges = Partial<Pick<UpdateOrganizationUnitRequest, 'name' | 'metadata'>>;
