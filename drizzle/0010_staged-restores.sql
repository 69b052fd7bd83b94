CREATE TABLE `restores` (
	`programme_id` text PRIMARY KEY NOT NULL,
	`staged_as` text NOT NULL,
	`phase` text NOT NULL,
	FOREIGN KEY (`programme_id`) REFERENCES `programmes`(`id`) ON UPDATE no action ON DELETE cascade
);
