ALTER TABLE `attempts` ADD `forgery` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `processed` integer;