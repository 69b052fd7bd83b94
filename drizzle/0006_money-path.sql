ALTER TABLE `programmes` ADD `fees` text;--> statement-breakpoint
ALTER TABLE `programmes` ADD `hold_expiry_ms` integer;--> statement-breakpoint
ALTER TABLE `authorisations` ADD `captured_amount` text;