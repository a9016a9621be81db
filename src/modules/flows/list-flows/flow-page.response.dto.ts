import { PageResponse } from '../../../shared/pagination/page';
import { FlowResponse } from '../domain/flow.response.dto';

export class FlowPage extends PageResponse(FlowResponse) {}
