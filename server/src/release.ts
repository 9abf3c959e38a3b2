/** The release this build is: package.json's version, the one place it is written (the bundles inline it). */
import { version } from '../../package.json';

export const SHARDWISE_VERSION: string = version;
