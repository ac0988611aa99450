module.exports = { testMatch: ['<rootDir>/jest/**/*.spec.cjs'], setupFilesAfterEnv: ['@smsv4/testing/jest'], testEnvironment: 'node', testTimeout: 30_000 };
