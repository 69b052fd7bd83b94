ALTER TABLE `events` ADD `trace_parent` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `trace_parent` text;