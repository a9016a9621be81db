import { Module } from '@nestjs/common';

/** Design §5.5: the organization-unit tree. */
@Module({ controllers: [], providers: [] })
export class OrganizationUnitsModule {}
