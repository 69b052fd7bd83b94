DROP INDEX `deliveries_status`;--> statement-breakpoint
CREATE INDEX `deliveries_due` ON `deliveries` (`status`,`next_attempt_at`);