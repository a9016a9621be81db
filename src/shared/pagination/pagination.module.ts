import { Module } from '@nestjs/common';
import { CursorCodec } from './cursor-codec';
import { KeysetPaginator } from './keyset-paginator';
import { NewestFirstPaginator } from './newest-first-paginator';

/** Signed cursors and keyset pagination for list endpoints; import it in a feature module. */
@Module({
  providers: [CursorCodec, KeysetPaginator, NewestFirstPaginator],
  exports: [CursorCodec, KeysetPaginator, NewestFirstPaginator],
})
export class PaginationModule {}
