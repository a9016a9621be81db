import { Module } from '@nestjs/common';

/** Design §5.7: tenant and global audit queries. */
@Module({ controllers: [], providers: [] })
export class AuditModule {}
