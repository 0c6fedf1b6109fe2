export interface SettingTable {
  key: string;
  value: string | null;
}

export interface SettingTables {
  setting: SettingTable;
}
