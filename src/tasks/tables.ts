export interface TaskLeaseTable {
  lease_key: string;
  owner: string;
  expires_at: number;
}

export interface TaskTables {
  task_lease: TaskLeaseTable;
}
