import { Module } from '@nestjs/common';

/** Design §5.6: membership grants. */
@Module({ controllers: [], providers: [] })
export class MembershipsModule {}
