import { Module } from '@nestjs/common';

/** Design §5.4: tenants. */
@Module({ controllers: [], providers: [] })
export class TenantsModule {}
