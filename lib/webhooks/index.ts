// What other domains of lib/ may use of lib/webhooks/: they import it from here, never from its files.
export { cleanupHookTasks } from './hook-task-cleanup.ts';
export { deleteOwnerHooks } from './tasks.ts';
export { hooksList, hooksOver, keepHooks } from './webhooks.ts';
