import type { ConsoleArea } from './area';
import { blocksArea } from './blocks';
import { emailArea } from './email';
import { replaysArea } from './replays';
import { studioArea } from './studio';

/** The flow-side sections of the console, each in its own file: flow studio, replays and templates, blocks, e-mail. */
export const areas: ConsoleArea[] = [studioArea, replaysArea, blocksArea, emailArea];
