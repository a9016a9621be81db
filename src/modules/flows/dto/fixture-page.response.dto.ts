import { PageResponse } from '../../../shared/pagination/page';
import { FixtureResponse } from './fixture.response.dto';

export class FixturePage extends PageResponse(FixtureResponse) {}
