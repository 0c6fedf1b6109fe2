export interface AppLockTables {
  app_lock: { lock_name: string };
}
