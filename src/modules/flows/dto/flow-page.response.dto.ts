import { PageResponse } from '../../../shared/pagination/page';
import { FlowResponse } from './flow.response.dto';

export class FlowPage extends PageResponse(FlowResponse) {}
