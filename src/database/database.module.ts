import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseConnection } from './database-connection';

@Global()
@Module({
  providers: [
    { provide: DatabaseConnection, useFactory: (config: AppConfig) => DatabaseConnection.open(config), inject: [AppConfig] },
    { provide: DataSource, useFactory: (connection: DatabaseConnection) => connection.dataSource, inject: [DatabaseConnection] },
  ],
  exports: [DataSource],
})
export class DatabaseModule {}
