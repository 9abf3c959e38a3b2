/**
 * The environment without what an outer npm run sets (`npm_config_*`, `npm_lifecycle_*`,
 * `npm_package_*`, `npm_execpath`, `npm_node_execpath`, `npm_command`): under `npm test` they would
 * change what a nested npm command means; code-server's install script, for one, reads the outer
 * `npm_config_user_agent` (Node 20) and refuses to run on the Node 24 it is given.
 */
export function npmFreeEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(config|lifecycle|package)_/i.test(k) && !['npm_execpath', 'npm_node_execpath', 'npm_command', 'INIT_CWD'].includes(k)));
}
