CREATE TABLE `snapshots` (
	`id` text PRIMARY KEY NOT NULL,
	`programme_id` text NOT NULL,
	`name` text NOT NULL,
	`clock_now` integer NOT NULL,
	`clock_frozen` integer NOT NULL,
	`counts` text NOT NULL,
	`file` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `snapshots_programme` ON `snapshots` (`programme_id`);