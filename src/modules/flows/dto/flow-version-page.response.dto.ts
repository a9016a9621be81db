import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import { FlowVersionResponse } from './flow-version.response.dto';

export class FlowVersionPage extends NewestFirstPageResponse(FlowVersionResponse) {}
