ALTER TABLE `programmes` ADD `starting_balance` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `balance` text DEFAULT '1000000' NOT NULL;