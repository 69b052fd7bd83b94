ALTER TABLE `attempts` ADD `fault` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `response_type` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `response_body` text;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `paused_due_at` integer;--> statement-breakpoint
ALTER TABLE `deliveries` ADD `hold` text;--> statement-breakpoint
ALTER TABLE `programmes` ADD `webhook_faults` text;--> statement-breakpoint
ALTER TABLE `programmes` ADD `webhooks_paused` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `faults` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `paused` integer DEFAULT false NOT NULL;