export * from './book-side';
export * from './order-book';
